//go:build linux

package board

import (
	"syscall"
	"unsafe"
)

// allocChunk returns an empty chunk of k columns mapped straight from the
// OS, so that freeChunk can give it back at once. Memory from Go's heap
// would be given back only after a collection, which is why a board read
// in chunks and then copied would otherwise peak at twice its size.
func allocChunk(k int) Placement {
	b, err := syscall.Mmap(-1, 0, 4*k, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make(Placement, 0, k) // out of mappings: the heap will do
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(b))), k)[:0]
}

// freeChunk gives a chunk of allocChunk back to the OS; nothing may use it
// afterwards. syscall.Munmap refuses memory it did not map, so a chunk from
// the heap (the first one, or a fallback) is left to the collector.
func freeChunk(p Placement) {
	if cap(p) == 0 {
		return
	}
	_ = syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(p[:1]))), 4*cap(p)))
}
