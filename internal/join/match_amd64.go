//go:build !purego

package join

import "golang.org/x/sys/cpu"

//go:noescape
func countK1AVX512(tab *blockRow, offs *uint32, n int) uint64

//go:noescape
func countK2AVX512(tab *blockRow, offs *uint32, n int) uint64

//go:noescape
func countK3AVX512(tab *blockRow, offs *uint32, n int) uint64

//go:noescape
func countK4AVX512(tab *blockRow, offs *uint32, n int) uint64

//go:noescape
func countK5AVX512(tab *blockRow, offs *uint32, n int) uint64

//go:noescape
func countK6AVX512(tab *blockRow, offs *uint32, n int) uint64

//go:noescape
func countK7AVX512(tab *blockRow, offs *uint32, n int) uint64

//go:noescape
func countK8AVX512(tab *blockRow, offs *uint32, n int) uint64

//go:noescape
func countK9AVX512(tab *blockRow, offs *uint32, n int) uint64

var countKAVX512 = [...]func(tab *blockRow, offs *uint32, n int) uint64{
	nil, countK1AVX512, countK2AVX512, countK3AVX512, countK4AVX512,
	countK5AVX512, countK6AVX512, countK7AVX512, countK8AVX512, countK9AVX512,
}

func countBlockAVX512(tab []blockRow, offs []uint32, k int) uint64 {
	n := len(offs) / k
	if n == 0 {
		return 0
	}
	return countKAVX512[k](&tab[0], &offs[0], n)
}

var avx512Ops = matchOps{"avx512", compressVector, offsetsVector, planesVector, rowsVector, countBlockAVX512}

func compressVector(_ *matcher, dst, src []uint64, j uint64) {
	if len(src) > 0 {
		compressBMI2(&dst[0], &src[0], len(src), j)
	}
}

func offsetsVector(_ *matcher, dst []uint32, ys []uint64, j uint64, g chunks) {
	if len(ys) > 0 {
		offsetsBMI2(&dst[0], &ys[0], len(ys), j, g.k, g.w)
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
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512VPOPCNTDQ && cpu.X86.HasAVX512VBMI && cpu.X86.HasAVX512BW && cpu.X86.HasBMI2 {
		ops = avx512Ops
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

// offsetsBMI2 is rowOffsets of the patterns compressed by j.
//
//go:noescape
func offsetsBMI2(dst *uint32, src *uint64, n int, j uint64, k, w int)
