//go:build nqueens_faults && !unix

package faults

// releaseOnSignal does nothing where there is no SIGUSR1: the hold ends
// with the run.
func releaseOnSignal(*Hold) {}
