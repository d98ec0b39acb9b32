package join

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// The narrow sieve. Every split removes a bit from the bits both sides of
// a part have, and at N = 27 more than half of the patterns the sieve
// passes over (96 % in parts below 2^14 patterns) are in parts of at most
// 32 such bits. There the patterns are packed to those bits once, 32 bits
// each, and the part is sieved on them: a pass moves half the bytes and
// its vector loops take 16 patterns at a time instead of 8. The splits,
// the samples and the leaves make the same choices on the packed bits as
// on the wide ones (the packing keeps the bits' order), so the pairs
// compared and the counts are the same.

// narrowSize is the size (both lists) from which a part is packed: below
// it, too few splits are left under it to pay for the pass that packs it.
var narrowSize = 1 << 13

// pattern is a half's pattern, wide (as built) or packed to 32 bits.
type pattern interface{ uint32 | uint64 }

// width is what the sieve does differently on patterns of 64 and of 32
// bits: its passes, its stack buffers (room for a vector past n), its
// leaves, and, on wide patterns, the move to narrow ones.
type width[T pattern] struct {
	partition func(ops *matchOps, xs, ones []T, b uint8) (n0 int, or0, or1 T)
	lacking   func(ops *matchOps, dst, src []T, b uint8) (n int, or T)
	alloc     func(s *patternStack, n int) []T
	trim      func(s *patternStack, b []T, n int) []T
	block     func(mt *matcher, ops *matchOps, blk []T) []uint64 // a leaf's block as the tables take it
	count     func(mt *matcher, ops *matchOps, ys []T, j uint64, g chunks) uint64
	narrow    func(mt *matcher, ops *matchOps, xs, ys []T, j T, order sieveOrder, stop *atomic.Bool) (count, compared uint64, ok bool)
}

var wide = width[uint64]{
	partition: func(ops *matchOps, xs, ones []uint64, b uint8) (int, uint64, uint64) {
		return ops.partition(xs, ones, b)
	},
	lacking: func(ops *matchOps, dst, src []uint64, b uint8) (int, uint64) { return ops.lacking(dst, src, b) },
	alloc:   func(s *patternStack, n int) []uint64 { return s.alloc(n + 8) },
	trim:    (*patternStack).trim,
	block:   func(_ *matcher, _ *matchOps, blk []uint64) []uint64 { return blk },
	count: func(mt *matcher, ops *matchOps, ys []uint64, j uint64, g chunks) uint64 {
		return ops.count(mt, ys, j, g)
	},
	narrow: narrowSplit,
}

var narrow = width[uint32]{
	partition: func(ops *matchOps, xs, ones []uint32, b uint8) (int, uint32, uint32) {
		return ops.partition32(xs, ones, b)
	},
	lacking: func(ops *matchOps, dst, src []uint32, b uint8) (int, uint32) { return ops.lacking32(dst, src, b) },
	alloc:   func(s *patternStack, n int) []uint32 { return s.alloc32(n + 16) },
	trim:    (*patternStack).trim32,
	block:   widenBlock,
	count: func(mt *matcher, ops *matchOps, ys []uint32, j uint64, g chunks) uint64 {
		return ops.count32(mt, ys, j, g)
	},
}

// narrowSplit is split of xs and ys, whose common bits j are at most 32,
// by the narrow sieve: both lists packed to the bits of j, and order's
// bits renamed to their places among them.
func narrowSplit(mt *matcher, ops *matchOps, xs, ys []uint64, j uint64, order sieveOrder, stop *atomic.Bool) (count, compared uint64, ok bool) {
	mark := mt.stack.mark()
	defer mt.stack.release(mark)
	x := mt.stack.alloc32(len(xs))
	ops.compress32(mt, x, xs, j)
	y := mt.stack.alloc32(len(ys))
	ops.compress32(mt, y, ys, j)
	// Every bit of j is in both ORs: packed, they are all ones.
	full := uint32(1<<bits.OnesCount64(j) - 1)
	return split(mt, ops, &narrow, x, y, full, full, order.packed(j), stop)
}

// packed returns the bits of o left to split on, those of j renamed to
// their places among j's bits (a split never needs the others).
func (o sieveOrder) packed(j uint64) sieveOrder {
	r := sieveOrder{flip: o.flip, ready: o.ready}
	for i := o.i; i < o.n; i++ {
		if b := o.bits[i]; j>>b&1 != 0 {
			r.bits[r.n] = uint8(bits.OnesCount64(j & (1<<b - 1)))
			r.px[r.n], r.py[r.n] = o.px[i], o.py[i]
			r.n++
		}
	}
	return r
}

// widenBlock returns a leaf's block of packed patterns widened to 64 bits
// in mt.wblk, for the tables (the ys are counted as they are).
func widenBlock(mt *matcher, ops *matchOps, blk []uint32) []uint64 {
	w := mt.wblk[:len(blk)]
	ops.widen(w, blk)
	return w
}

// widenGo sets dst[i] to src[i].
func widenGo(dst []uint64, src []uint32) {
	for i, x := range src {
		dst[i] = uint64(x)
	}
}

// compress32Go is compressGo into 32-bit patterns (j has at most 32 bits).
func compress32Go(mt *matcher, dst []uint32, src []uint64, j uint64) {
	mt.extract(j)
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = uint32(mt.pext(x))
	}
}

// alloc32 is alloc for n 32-bit patterns, in whole words of the stack;
// the 64 words past a buffer stay within its capacity.
func (s *patternStack) alloc32(n int) []uint32 {
	b := s.alloc((n + 1) / 2)
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), 2*cap(b))[:n]
}

// trim32 is trim for a buffer of alloc32.
func (s *patternStack) trim32(b []uint32, n int) []uint32 {
	s.top -= (len(b)+1)/2 - (n+1)/2
	return b[:n]
}
