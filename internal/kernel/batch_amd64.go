//go:build !purego

package kernel

import (
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// hasVector reports whether this CPU runs the batch search's vector code
// (AVX2, and POPCNT, which the assembly also uses).
var hasVector = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT

// vectorOps is the batch work in AVX2 and assembly.
var vectorOps = batchOps{chooseVector, last3Vector, emitRoundAsm}

// countBatch is count32's search, node for node, run level by level: the
// nodes with the same number of rows left wait in a batch, and the batch's
// rows are scanned together, eight nodes at a time in vector instructions
// (batch_amd64.s), with no branch that depends on a node. Its cost per node
// is about 0.4 of count32's in assembly. The CPU must have AVX2
// (hasVector). N = 32 goes to the assembly loop: the scan takes a row's
// index from its bit converted to a float as a signed 32-bit integer, and
// the bit of row 31 is negative there.
func countBatch(b *Board, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	if b.N > 31 {
		return count32Asm(b, stop)
	}
	return countBatchWith(b, stop, &vectorOps)
}

// chooseAVX2 is chooseBatch and firstChildren eight nodes at a time
// (batch_amd64.s), for N ≤ 31. It reads and writes whole groups of eight,
// so the nodes from m up to the next multiple of eight must be dead ends
// (chooseVector makes them so), and C must have room for as many children.
//
//go:noescape
func chooseAVX2(L *level, m int, nm1 uint64, k int, C *level, cm int) (children uint64, cmOut int)

// chooseLocals are chooseAVX2's constants on its stack frame, each in all
// lanes of a 256-bit vector (the assembly names them through go_asm.h).
//
//lint:ignore U1000 the assembly reads it through go_asm.h
type chooseLocals struct {
	k127, kt, k0f, kone8, kone16, krowmask [8]uint32 // 32-bit lanes
	knm1q                                  [4]uint64 // 64-bit lanes
}

// chooseVector is chooseAVX2 on the m nodes of L and a few dead ends.
func chooseVector(L, C *level, m int, nm1 uint64, k int, _ *[64]uint64) (children uint64) {
	padDead(L, m, 8)
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
	padDead(L, m, 4)
	return last3AVX2(L, m, nm1)
}

// padDead makes the nodes of L from m up to the next multiple of group
// dead ends (no free column, no row left), for the vector code, which
// reads whole groups.
func padDead(L *level, m, group int) {
	for i := m; i%group != 0; i++ {
		L.occ[i], L.rem[i] = ^uint64(0), 0
	}
}

// emitRoundAsm is emitRound in assembly (batch_amd64.s).
//
//go:noescape
func emitRoundAsm(L, C *level, n int, nm1 uint64) (left int)
