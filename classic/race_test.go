//go:build race

package classic

// raceOn: the race detector makes the step-by-step checks some ten times
// slower; the full walk to n = 10 runs without it.
const raceOn = true
