//go:build race

package count

// raceOn: the race detector makes the plain recount some ten times
// slower; its walks over every unit of N = 13 and 14 run without it.
const raceOn = true
