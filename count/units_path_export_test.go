package count

// RaceOn tells the tests of package count_test whether the race detector
// is on (see race_test.go).
const RaceOn = raceOn
