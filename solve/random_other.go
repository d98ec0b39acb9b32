//go:build !linux

package solve

import "unsafe"

// adviseHuge does nothing where Linux's transparent huge pages are not
// available.
func adviseHuge(unsafe.Pointer, uintptr) {}
