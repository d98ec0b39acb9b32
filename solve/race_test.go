//go:build race

package solve

// raceEnabled: the race detector slows the search tenfold; the largest
// listings are left out under it.
const raceEnabled = true
