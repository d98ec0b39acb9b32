package kernel

import (
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// countBatchVector is the batch search with the vector scan for N ≤ 31,
// and the assembly loop for N = 32: the scan takes a row's index from its
// bit converted to a float as a signed 32-bit integer, and the bit of row
// 31 is negative there.
func countBatchVector(b *Board, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	if b.N > 31 {
		return count32Asm(b, stop)
	}
	return countBatch(b, stop)
}

// chooseAVX2 is chooseBatch and firstChildren eight nodes at a time
// (batch_amd64.s), for N ≤ 31. It reads and writes whole groups of eight,
// so the nodes from m up to the next multiple of eight must be dead ends
// (chooseVector makes them so), and C must have room for as many children.
//
//go:noescape
func chooseAVX2(L *level, m int, nm1 uint64, k int, C *level, cm int) (children uint64, cmOut int)

// chooseVector is chooseAVX2 on the m nodes of L and a few dead ends.
func chooseVector(L, C *level, m int, nm1 uint64, k int, _ *[64]uint64) (children uint64) {
	for i := m; i&7 != 0; i++ {
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

// emitRoundAsm is emitRound in assembly (batch_amd64.s).
//
//go:noescape
func emitRoundAsm(L, C *level, n int, nm1 uint64) (left int)

func init() {
	emitLevel = emitRoundAsm
	if cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT {
		chooseLevel, last3Level = chooseVector, last3Vector
	}
}
