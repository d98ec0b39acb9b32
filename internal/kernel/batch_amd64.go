package kernel

import "golang.org/x/sys/cpu"

// chooseAVX2 is chooseBatch and firstChildren four nodes at a time
// (batch_amd64.s). It reads and writes whole groups of four, so the nodes
// from m up to the next multiple of four must be dead ends (chooseVector
// makes them so), and C must have room for as many children.
//
//go:noescape
func chooseAVX2(L *level, m int, nm1 uint64, k int, C *level, cm int) (children uint64, cmOut int)

// chooseVector is chooseAVX2 on the m nodes of L and a few dead ends.
func chooseVector(L, C *level, m int, nm1 uint64, k int, _ *[64]uint64) (children uint64) {
	for i := m; i&3 != 0; i++ {
		L.occ[i], L.rem[i] = ^uint64(0), 0
	}
	children, C.m = chooseAVX2(L, m, nm1, k, C, C.m)
	return children
}

// last3AVX2 is last3Batch four nodes at a time (batch_amd64.s), with the
// same padding as chooseAVX2.
//
//go:noescape
func last3AVX2(L *level, m int, nm1 uint64) (sols uint64)

// last3Vector is last3AVX2 on the m nodes of L and a few dead ends.
func last3Vector(L *level, m int, nm1 uint64) uint64 {
	for i := m; i&3 != 0; i++ {
		L.occ[i], L.rem[i] = ^uint64(0), 0
	}
	return last3AVX2(L, m, nm1)
}

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT {
		chooseLevel, last3Level = chooseVector, last3Vector
	}
}
