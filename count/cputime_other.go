//go:build !linux

package count

import "time"

// threadCPU is the wall clock where the thread's CPU time is not read.
func threadCPU() time.Duration { return wallClock() }

// processCPU is the wall clock where the process's CPU time is not read.
func processCPU() time.Duration { return wallClock() }

var clockStart = time.Now()

func wallClock() time.Duration { return time.Since(clockStart) }
