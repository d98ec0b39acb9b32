//go:build nqueens_faults

package faults

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// Environment variables read by test builds.
const (
	HoldFirstEnv = "NQUEENS_FAULT_HOLD_FIRST" // a duration, such as 30s
	AddTotalEnv  = "NQUEENS_FAULT_ADD_TOTAL"  // a multiple of 8
)

func init() {
	if v := os.Getenv(HoldFirstEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			panic(fmt.Sprintf("%s=%q: %v", HoldFirstEnv, v, err))
		}
		active.holdFirst = d
	}
	if v := os.Getenv(AddTotalEnv); v != "" {
		k, err := strconv.ParseUint(v, 10, 64)
		if err != nil || k%8 != 0 {
			panic(fmt.Sprintf("%s=%q: want a multiple of 8", AddTotalEnv, v))
		}
		active.addTotal = k
	}
}
