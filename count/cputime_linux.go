package count

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time of the calling thread (the goroutine must
// be locked to it): a probe's time that other processes on a busy machine
// do not stretch.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return wallClock()
	}
	return time.Duration(ts.Nano())
}

// processCPU returns the CPU time of the process, user and system.
func processCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return wallClock()
	}
	return time.Duration(ts.Nano())
}

var clockStart = time.Now()

// wallClock is the time since the process started measuring.
func wallClock() time.Duration { return time.Since(clockStart) }
