//go:build !race

package classic

const raceOn = false
