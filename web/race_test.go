//go:build race

package web

// raceEnabled: the race detector slows a test's own clients several times
// (2,000 of them in one process missed the slow-client limit).
const raceEnabled = true
