package join

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugeWords is the size from which newWords maps its memory itself: 2
// MB, one huge page.
const hugeWords = 1 << 18

// newWords returns n zeroed words and a function that gives them back.
// From 2 MB on they are mapped outside the Go heap, in memory the kernel
// may back with 2 MB pages: the quarter tables are written once, right
// after they are allocated, and with 4 kB pages the first touch of each
// page (a fault, about 1.6 µs on the project machine) cost N = 18's 29 MB
// 12 ms (1.4 ms with huge pages), in the part of every count that the
// workers cannot share. The GC does not scan or count them (they hold
// no pointers, and the tables are made once per N).
func newWords(n int) ([]uint64, func()) {
	if n < hugeWords {
		return make([]uint64, n), func() {}
	}
	m, err := unix.Mmap(-1, 0, n*8, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return make([]uint64, n), func() {}
	}
	// Only a hint: without transparent huge pages the kernel ignores it.
	_ = unix.Madvise(m, unix.MADV_HUGEPAGE)
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(m))), n), func() { _ = unix.Munmap(m) }
}
