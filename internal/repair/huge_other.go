//go:build !linux

package repair

import "unsafe"

// AdviseHuge does nothing where Linux's transparent huge pages are not
// available.
func AdviseHuge(unsafe.Pointer, uintptr) {}
