// Package faults injects faults into the cluster's workers for the
// process tests: a worker that holds its first block, one that returns
// wrong results. The hooks are compiled in only with the build tag
// nqueens_faults (see faults_on.go); in every other build they do nothing
// and read nothing.
package faults

import (
	"time"

	"github.com/nqueens/nqueens/count"
)

// hooks are the faults a test build reads from its environment.
type hooks struct {
	holdFirst time.Duration // hold the first block this long before counting it
	addTotal  uint64        // add this to every non-zero unit total
}

var active hooks

// HoldFirst returns how long a worker holds the first block it takes
// before counting it; 0 outside test builds.
func HoldFirst() time.Duration { return active.holdFirst }

// Corrupt damages u as a rogue worker would, in a way that passes the
// checks of a single result: it adds a multiple of 8 to a non-zero total
// (every orbit size divides 8). It does nothing outside test builds.
func Corrupt(u *count.UnitResult) {
	if active.addTotal != 0 && u.Total != 0 {
		u.Total += active.addTotal
	}
}
