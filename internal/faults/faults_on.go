//go:build nqueens_faults

package faults

import (
	"fmt"
	"os"
	"strconv"
)

// Environment variables read by test builds.
const (
	// HoldUnitEnv holds unit k (of any N) until the process gets SIGUSR1
	// (see release_unix.go) or its run ends: an interrupt, a kill. The
	// process says "fault injection: holding unit k" on stderr when it
	// comes to the unit.
	HoldUnitEnv = "NQUEENS_FAULT_HOLD_UNIT"
	AddTotalEnv = "NQUEENS_FAULT_ADD_TOTAL" // a multiple of 8
)

func init() {
	if v := os.Getenv(HoldUnitEnv); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 0 {
			panic(fmt.Sprintf("%s=%q: want a unit index", HoldUnitEnv, v))
		}
		h := HoldUnit(AnyN, k)
		go func() {
			<-h.Reached()
			fmt.Fprintf(os.Stderr, "nqueens: fault injection: holding unit %d until SIGUSR1\n", k)
		}()
		releaseOnSignal(h)
	}
	if v := os.Getenv(AddTotalEnv); v != "" {
		k, err := strconv.ParseUint(v, 10, 64)
		if err != nil || k%8 != 0 {
			panic(fmt.Sprintf("%s=%q: want a multiple of 8", AddTotalEnv, v))
		}
		addTotal = k
	}
}
