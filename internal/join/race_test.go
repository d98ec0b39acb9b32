//go:build race

package join

// raceEnabled: the race detector slows the walks of the quarter lists
// about tenfold; TestWindowsAtLargeN walks 10^7 placements and more.
const raceEnabled = true
