//go:build !race

package count

const raceOn = false
