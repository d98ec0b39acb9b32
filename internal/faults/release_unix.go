//go:build nqueens_faults && unix

package faults

import (
	"os"
	"os/signal"
	"syscall"
)

// releaseOnSignal releases h when the process gets SIGUSR1.
func releaseOnSignal(h *Hold) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	go func() {
		<-c
		signal.Stop(c)
		h.Release()
	}()
}
