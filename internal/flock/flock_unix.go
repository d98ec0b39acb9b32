//go:build unix

package flock

import (
	"os"
	"syscall"
)

// Lock takes a non-blocking exclusive flock(2) on f. The lock belongs to
// the open file, not to the path: it holds while f stays open, whatever
// happens to the name, and the system drops it when the process dies.
func Lock(f *os.File) (unlock func(), err error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
}
