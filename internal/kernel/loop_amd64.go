//go:build !purego

package kernel

import (
	"math/bits"
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// init has [Count] run the batch search where the CPU has AVX2, else the
// hot loop of count32 in assembly (loop_amd64.s), node for node the same
// search: the Go compiler, held to the x86-64 baseline, checks for POPCNT
// at every use and spills the loop's registers, and the loop runs about a
// sixth faster without that.
func init() {
	switch {
	case hasVector:
		count32Loop = countBatch
	case hasPOPCNT:
		count32Loop = count32Asm
	}
	implementations = append(implementations, implementation{"count32Asm", count32Asm, 32, hasPOPCNT})
	implementations = append(implementations, implementation{"countBatch", countBatch, 32, hasVector})
}

// hasPOPCNT reports whether the CPU has the POPCNT instruction (every
// x86-64 CPU since about 2010; the assembly loop needs it).
var hasPOPCNT = cpu.X86.HasPOPCNT

// search32 is count32's state between two slices of the assembly loop,
// which reads its fields through go_asm.h.
//
//lint:ignore U1000 the assembly reads the fields through go_asm.h
type search32 struct {
	occ, diag, anti, rem, avail, row uint64 // the node being expanded
	depth                            uint64 // frames on the stack
	sols, nodes                      uint64
	// The node's avail, row and queen while a child is examined, then
	// the child's occ, diag and anti and last3's three row distances
	// while its last rows are counted.
	spAvail, spRow, spBit uint64
	spOcc, spDiag, spAnti uint64
	d12, d13, d23         uint64
	rank                  [64]uint64
	stack                 [32]frame
}

// run32 continues the search in s for at most budget nodes and reports
// whether it has finished.
//
//go:noescape
func run32(s *search32, budget uint64) (finished bool)

// count32Asm is count32 with the loop in assembly: same nodes, same
// counts, same looks at stop (every stopEvery nodes).
func count32Asm(b *Board, stop *atomic.Bool) (sols, nodes uint64, ok bool) {
	return count32Sliced(b, stop, stopEvery)
}

// count32Sliced runs the assembly loop in slices of budget nodes, looking
// at stop between them.
func count32Sliced(b *Board, stop *atomic.Bool, budget uint64) (sols, nodes uint64, ok bool) {
	if bits.OnesCount64(b.Rows) <= 3 {
		return countSmall(b), 0, true
	}
	var s search32
	s.occ = b.Cols | ^uint64(0)<<uint(b.N)
	s.diag, s.anti, s.rem = bits.RotateLeft64(b.Diag, 1-b.N), b.Anti, b.Rows
	s.rank = ranks(b.N)
	row, avail := firstRow(s.occ, s.diag, s.anti, s.rem, &s.rank)
	s.row, s.avail = uint64(row), avail
	s.rem &^= 1 << uint(row)
	for !run32(&s, budget) {
		if stop != nil && stop.Load() {
			return s.sols, s.nodes, false
		}
	}
	return s.sols, s.nodes, true
}
