package testkit

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Patience is how many times longer than on an idle machine work may take
// now: the load average of the last minute per core, at least 1 (CI runs
// the packages' tests side by side on 2 cores, at load 10 and more). A
// wait that only tells a hang from slow work scales its limit by it
// ([Patient]); what must be fast is a benchmark's to show, not a wait's.
func Patience() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1 // no load average here: the limits as written
	}
	load, err := strconv.ParseFloat(strings.Fields(string(data) + " 0")[0], 64)
	if err != nil {
		return 1
	}
	return max(1, load/float64(runtime.NumCPU()))
}

// Patient is d scaled by [Patience].
func Patient(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Patience())
}
