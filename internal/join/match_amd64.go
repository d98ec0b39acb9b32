//go:build !purego

package join

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:noescape
func countK1AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK2AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK3AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK4AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK5AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK6AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK7AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK8AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK1AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK2AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK3AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK4AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK5AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK6AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK7AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

//go:noescape
func countK8AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

// rowsAVX2 is rowsAVX512 in 256-bit halves.
//
//go:noescape
func rowsAVX2(has, tab, valid *blockRow, k, w int)

// offsetBits are the bits of each chunk's row offset in the words that
// the counting loops take apart (SHIFT in count_amd64.s).
const offsetBits = 16

// countKernels are the count loops of one instruction set, by the number
// of chunks (1 … 8).
type countKernels [maxChunks + 1]func(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4, stride int) uint64

// count is countBlockGo by the loop for g.k chunks: the row offsets of
// chunks 0 … 3 spread into 16-bit lanes by the mask lo, and those of
// chunks 4 … 7, shifted down by 4w, by hi.
func (c *countKernels) count(mt *matcher, ys []uint64, j uint64, g chunks) uint64 {
	if len(ys) == 0 {
		return 0
	}
	return c.run(mt, &ys[0], len(ys), 8, j, g)
}

// count32 is count on the narrow sieve's 32-bit ys (j below 32 bits; the
// loops read 4 bytes past the last y, which its buffers have).
func (c *countKernels) count32(mt *matcher, ys []uint32, j uint64, g chunks) uint64 {
	if len(ys) == 0 {
		return 0
	}
	return c.run(mt, (*uint64)(unsafe.Pointer(&ys[0])), len(ys), 4, j, g)
}

// run runs the loop for g.k chunks on the n ys from ys on, stride bytes
// apart.
func (c *countKernels) run(mt *matcher, ys *uint64, n, stride int, j uint64, g chunks) uint64 {
	var lo uint64
	for c := range 4 {
		lo |= (1<<g.w - 1) << (offsetBits*c + 6) // row v of a chunk is v·64 bytes on
	}
	return c[g.k](&mt.tab[0], ys, n, j, lo, lo, 4*g.w, stride)
}

var countKAVX2 = countKernels{
	nil, countK1AVX2, countK2AVX2, countK3AVX2, countK4AVX2,
	countK5AVX2, countK6AVX2, countK7AVX2, countK8AVX2,
}

func rowsVectorAVX2(has, tab []blockRow, valid *blockRow, k, w int) {
	rowsAVX2(&has[0], &tab[0], valid, k, w)
}

// avx2Ops are the AVX2 and BMI2 loops, for CPUs without AVX-512: the
// joins, filters, reversal and bit planes stay in Go.
var avx2Ops = matchOps{"avx2", joinCellGo, filterGo, reverseGo, partitionGo[uint64], lackingGo[uint64], compressVector,
	partitionGo[uint32], lackingGo[uint32], compress32Vector, widenGo, planesGo, rowsVectorAVX2, countKAVX2.count, countKAVX2.count32}

var countKAVX512 = countKernels{
	nil, countK1AVX512, countK2AVX512, countK3AVX512, countK4AVX512,
	countK5AVX512, countK6AVX512, countK7AVX512, countK8AVX512,
}

var avx512Ops = matchOps{"avx512", joinVector, filterVector, reverseVector, partitionVector, lackingVector, compressVector,
	partition32Vector, lacking32Vector, compress32Vector, widenVector, planesVector, rowsVector, countKAVX512.count, countKAVX512.count32}

func joinVector(out []uint64, out0 *[]uint64, t0, t1 []uint64, inner, sm uint64, b0, b1 []uint64) []uint64 {
	n := len(out)
	out = grow(out, len(t0)*len(b0)+8)
	var w0 []uint64
	var p0 *uint64
	if out0 != nil {
		w0 = grow(*out0, len(t0)*len(b0)+8)
		p0 = &w0[n]
	}
	k := joinAVX512(&out[n], p0, &t0[0], &t1[0], len(t0), inner, sm, &b0[0], &b1[0], len(b0))
	if out0 != nil {
		*out0 = w0[:n+k]
	}
	return out[:n+k]
}

func filterVector(dst, src, w0 []uint64, sm uint64) []uint64 {
	n := len(dst)
	dst = grow(dst, len(src)+8)
	if len(src) == 0 {
		return dst[:n]
	}
	k := filterAVX512(&dst[n], &src[0], &w0[0], len(src), sm)
	return dst[:n+k]
}

func reverseVector(xs []uint64, shift int) {
	if len(xs) > 0 {
		reverseAVX512(&xs[0], len(xs), shift)
	}
}

func compressVector(_ *matcher, dst, src []uint64, j uint64) {
	if len(src) > 0 {
		compressBMI2(&dst[0], &src[0], len(src), j)
	}
}

func planesVector(pats []uint64, has []blockRow, nbytes int) {
	if len(pats) > 0 {
		planesAVX512(&pats[0], len(pats)/64, &has[0], nbytes)
	}
}

func rowsVector(has, tab []blockRow, valid *blockRow, k, w int) {
	rowsAVX512(&has[0], &tab[0], valid, k, w)
}

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasBMI2 {
		allOps = append(allOps, &avx2Ops)
		ops = &avx2Ops
	}
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ && cpu.X86.HasAVX512VBMI && cpu.X86.HasAVX512BW &&
		cpu.X86.HasAVX512GFNI && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT {
		allOps = append(allOps, &avx512Ops)
		ops = &avx512Ops
	}
}

// planesAVX512 fills has[p] word g with bit p of the patterns 64g … 64g+63
// of pats, for p < 8·nbytes and g < groups.
//
//go:noescape
func planesAVX512(pats *uint64, groups int, has *blockRow, nbytes int)

// rowsAVX512 builds the k chunk tables of w bits from the planes has.
//
//go:noescape
func rowsAVX512(has, tab, valid *blockRow, k, w int)

// compressBMI2 is compress with the PEXT instruction.
//
//go:noescape
func compressBMI2(dst, src *uint64, n int, j uint64)

// joinAVX512 is joinCellGo over the top entries t0, t1 of one cell and
// the bottom entries b0, b1 of the other; out (and out0 if not nil) has
// room for what they give and 8 more.
//
//go:noescape
func joinAVX512(out, out0, t0, t1 *uint64, nt int, inner, sm uint64, b0, b1 *uint64, nb int) int

// filterAVX512 is filterGo; dst has room for n + 8.
//
//go:noescape
func filterAVX512(dst, src, w0 *uint64, n int, sm uint64) int

// reverseAVX512 is reverseGo.
//
//go:noescape
func reverseAVX512(xs *uint64, n, shift int)

// partitionAVX512 is partitionGo (ones has room for n + 8).
//
//go:noescape
func partitionAVX512(xs, ones *uint64, n int, b uint8) (n0 int, or0, or1 uint64)

func partitionVector(xs, ones []uint64, b uint8) (n0 int, or0, or1 uint64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	return partitionAVX512(&xs[0], &ones[0], len(xs), b)
}

// lackingAVX512 is lackingGo (dst has room for n + 8).
//
//go:noescape
func lackingAVX512(dst, src *uint64, n int, b uint8) (m int, or uint64)

func lackingVector(dst, src []uint64, b uint8) (n int, or uint64) {
	if len(src) == 0 {
		return 0, 0
	}
	return lackingAVX512(&dst[0], &src[0], len(src), b)
}

// partition32AVX512 is partitionGo on 32-bit patterns (ones has room for
// n + 16).
//
//go:noescape
func partition32AVX512(xs, ones *uint32, n int, b uint8) (n0 int, or0, or1 uint32)

func partition32Vector(xs, ones []uint32, b uint8) (n0 int, or0, or1 uint32) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	return partition32AVX512(&xs[0], &ones[0], len(xs), b)
}

// lacking32AVX512 is lackingGo on 32-bit patterns (dst has room for
// n + 16).
//
//go:noescape
func lacking32AVX512(dst, src *uint32, n int, b uint8) (m int, or uint32)

func lacking32Vector(dst, src []uint32, b uint8) (n int, or uint32) {
	if len(src) == 0 {
		return 0, 0
	}
	return lacking32AVX512(&dst[0], &src[0], len(src), b)
}

// compress32BMI2 is compress32Go with the PEXT instruction.
//
//go:noescape
func compress32BMI2(dst *uint32, src *uint64, n int, j uint64)

func compress32Vector(_ *matcher, dst []uint32, src []uint64, j uint64) {
	if len(src) > 0 {
		compress32BMI2(&dst[0], &src[0], len(src), j)
	}
}

// widenAVX512 is widenGo, eight at a time (dst and src have room for 7
// past n).
//
//go:noescape
func widenAVX512(dst *uint64, src *uint32, n int)

func widenVector(dst []uint64, src []uint32) {
	if len(src) > 0 {
		widenAVX512(&dst[0], &src[0], len(src))
	}
}
