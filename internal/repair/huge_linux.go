//go:build linux

package repair

import (
	"syscall"
	"unsafe"
)

// AdviseHuge asks Linux to back a large array with 2 MB pages: the search
// reads it at random, and with 4 KB pages nearly every read would also miss
// the TLB. Failure only costs speed, so it is ignored.
func AdviseHuge(ptr unsafe.Pointer, size uintptr) {
	const huge = 2 << 20 // the size of a huge page
	if size < 4*huge {
		return
	}
	start := (uintptr(ptr) + huge - 1) &^ (huge - 1)
	end := (uintptr(ptr) + size) &^ (huge - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(ptr, start-uintptr(ptr))), end-start)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
