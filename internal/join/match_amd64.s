//go:build !purego

#include "textflag.h"

// ROW(c) ANDs into Z0 the table row at the c-th offset of the current y.
#define ROW(c) \
	MOVL (4*c)(SI), AX; \
	VPANDQ (DI)(AX*1), Z0, Z0

// SUM(reg) adds the eight 64-bit lanes of Z1 into reg.
#define SUM(reg) \
	VEXTRACTI64X4 $1, Z1, Y2; \
	VPADDQ Y2, Y1, Y1; \
	VEXTRACTI128 $1, Y1, X2; \
	VPADDQ X2, X1, X1; \
	VPSHUFD $0x4e, X1, X2; \
	VPADDQ X2, X1, X1; \
	VMOVQ X1, reg

// HEAD loads the arguments: DI the tables, SI the offsets, CX the number
// of ys; Z1 counts.
#define HEAD \
	MOVQ tab+0(FP), DI; \
	MOVQ offs+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	VPXORQ Z1, Z1, Z1; \
	TESTQ CX, CX; \
	JZ done

// FIRST starts the AND of a y's rows with its first row.
#define FIRST \
	MOVL (SI), AX; \
	VMOVDQU64 (DI)(AX*1), Z0

// TAIL counts the patterns left in Z0 and moves to the next y (K offsets
// of 4 bytes on).
#define TAIL(K) \
	VPOPCNTQ Z0, Z0; \
	VPADDQ Z0, Z1, Z1; \
	ADDQ $(4*K), SI; \
	DECQ CX; \
	JNZ loop

// PLANES(z, k) stores the planes of byte k, held for 64 patterns in z,
// when k < nbytes (DX): plane 8k+b at has + (8k+b)·64 (DI is has plus the
// group's word).
#define PLANES(z, k) \
	CMPQ DX, $k; \
	JLE pnext; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+7)*64)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+6)*64)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+5)*64)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+4)*64)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+3)*64)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+2)*64)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+1)*64)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k)*64)(DI)

#define END \
done: \
	SUM(AX); \
	MOVQ AX, ret+24(FP); \
	VZEROUPPER; \
	RET

// The same counts in AVX2, a 512-bit row in two 256-bit halves (Y0, Y1)
// and the bits counted by nibbles (VPSHUFB with the table in Y14, the mask
// 0x0f in Y15), summed per 64-bit lane by VPSADBW into Y12.

// ROW2(c) ANDs into Y0:Y1 the table row at the c-th offset of the current y.
#define ROW2(c) \
	MOVL (4*c)(SI), AX; \
	VPAND (DI)(AX*1), Y0, Y0; \
	VPAND 32(DI)(AX*1), Y1, Y1

#define HEAD2 \
	MOVQ tab+0(FP), DI; \
	MOVQ offs+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ $·nibbleCount(SB), AX; \
	VBROADCASTI128 (AX), Y14; \
	MOVQ $0x0f0f0f0f0f0f0f0f, AX; \
	VMOVQ AX, X15; \
	VPBROADCASTQ X15, Y15; \
	VPXOR Y13, Y13, Y13; \
	VPXOR Y12, Y12, Y12; \
	TESTQ CX, CX; \
	JZ done

#define FIRST2 \
	MOVL (SI), AX; \
	VMOVDQU (DI)(AX*1), Y0; \
	VMOVDQU 32(DI)(AX*1), Y1

// TAIL2(K) counts the bits of Y0:Y1 into Y12 and moves to the next y.
#define TAIL2(K) \
	VPAND Y15, Y0, Y2; \
	VPSRLW $4, Y0, Y3; \
	VPAND Y15, Y3, Y3; \
	VPSHUFB Y2, Y14, Y2; \
	VPSHUFB Y3, Y14, Y3; \
	VPADDB Y2, Y3, Y2; \
	VPAND Y15, Y1, Y4; \
	VPSRLW $4, Y1, Y5; \
	VPAND Y15, Y5, Y5; \
	VPSHUFB Y4, Y14, Y4; \
	VPSHUFB Y5, Y14, Y5; \
	VPADDB Y4, Y5, Y4; \
	VPADDB Y4, Y2, Y2; \
	VPSADBW Y13, Y2, Y2; \
	VPADDQ Y2, Y12, Y12; \
	ADDQ $(4*K), SI; \
	DECQ CX; \
	JNZ loop

#define END2 \
done: \
	VEXTRACTI128 $1, Y12, X2; \
	VPADDQ X2, X12, X12; \
	VPSHUFD $0x4e, X12, X2; \
	VPADDQ X2, X12, X12; \
	VMOVQ X12, AX; \
	MOVQ AX, ret+24(FP); \
	VZEROUPPER; \
	RET

// func countK1AVX512(tab *blockRow, offs *uint32, n int) uint64
//
// countBlockGo for k = 1 … 9 in AVX-512: one 512-bit row per chunk, the
// bits counted with VPOPCNTQ.
TEXT ·countK1AVX512(SB), NOSPLIT, $0-32
	HEAD
loop:
	FIRST
	TAIL(1)
	END

TEXT ·countK2AVX512(SB), NOSPLIT, $0-32
	HEAD
loop:
	FIRST
	ROW(1)
	TAIL(2)
	END

TEXT ·countK3AVX512(SB), NOSPLIT, $0-32
	HEAD
loop:
	FIRST
	ROW(1)
	ROW(2)
	TAIL(3)
	END

TEXT ·countK4AVX512(SB), NOSPLIT, $0-32
	HEAD
loop:
	FIRST
	ROW(1)
	ROW(2)
	ROW(3)
	TAIL(4)
	END

TEXT ·countK5AVX512(SB), NOSPLIT, $0-32
	HEAD
	// Two ys at a time, their first four rows ANDed three at a time
	// (VPTERNLOGQ $0x80: a & b & c).
	VPXORQ Z6, Z6, Z6
	SHRQ $1, CX
	JZ k5one
k5two:
	MOVL (SI), AX
	MOVL 4(SI), BX
	MOVL 20(SI), R8
	MOVL 24(SI), R9
	VMOVDQU64 (DI)(AX*1), Z0
	VMOVDQU64 (DI)(BX*1), Z2
	VMOVDQU64 (DI)(R8*1), Z3
	VMOVDQU64 (DI)(R9*1), Z4
	MOVL 8(SI), AX
	MOVL 28(SI), R8
	VPTERNLOGQ $0x80, (DI)(AX*1), Z2, Z0
	VPTERNLOGQ $0x80, (DI)(R8*1), Z4, Z3
	MOVL 12(SI), AX
	MOVL 16(SI), BX
	MOVL 32(SI), R8
	MOVL 36(SI), R9
	VMOVDQU64 (DI)(AX*1), Z2
	VMOVDQU64 (DI)(R8*1), Z4
	VPTERNLOGQ $0x80, (DI)(BX*1), Z2, Z0
	VPTERNLOGQ $0x80, (DI)(R9*1), Z4, Z3
	VPOPCNTQ Z0, Z0
	VPOPCNTQ Z3, Z3
	VPADDQ Z0, Z1, Z1
	VPADDQ Z3, Z6, Z6
	ADDQ $40, SI
	DECQ CX
	JNZ k5two
k5one:
	VPADDQ Z6, Z1, Z1
	MOVQ n+16(FP), CX
	ANDQ $1, CX
	JZ done
loop:
	FIRST
	ROW(1)
	ROW(2)
	ROW(3)
	ROW(4)
	TAIL(5)
	END

TEXT ·countK6AVX512(SB), NOSPLIT, $0-32
	HEAD
loop:
	FIRST
	ROW(1)
	ROW(2)
	ROW(3)
	ROW(4)
	ROW(5)
	TAIL(6)
	END

TEXT ·countK7AVX512(SB), NOSPLIT, $0-32
	HEAD
loop:
	FIRST
	ROW(1)
	ROW(2)
	ROW(3)
	ROW(4)
	ROW(5)
	ROW(6)
	TAIL(7)
	END

TEXT ·countK8AVX512(SB), NOSPLIT, $0-32
	HEAD
loop:
	FIRST
	ROW(1)
	ROW(2)
	ROW(3)
	ROW(4)
	ROW(5)
	ROW(6)
	ROW(7)
	TAIL(8)
	END

TEXT ·countK9AVX512(SB), NOSPLIT, $0-32
	HEAD
loop:
	FIRST
	ROW(1)
	ROW(2)
	ROW(3)
	ROW(4)
	ROW(5)
	ROW(6)
	ROW(7)
	ROW(8)
	TAIL(9)
	END

// func planesAVX512(pats *uint64, groups int, has *blockRow, nbytes int)
//
// For each group g of 64 patterns (eight vectors of eight), the bit planes
// has[p] word g = bit p of the 64 patterns, for p < 8·nbytes: bytes
// transposed within each vector (VPERMB), 64-bit words across the eight
// (so that vector k holds byte k of all 64 patterns), and the bits of a
// byte taken from the top one by one (VPMOVB2M, then VPADDB doubles).
TEXT ·planesAVX512(SB), NOSPLIT, $0-32
	MOVQ pats+0(FP), SI
	MOVQ groups+8(FP), CX
	MOVQ has+16(FP), DI
	MOVQ nbytes+24(FP), DX
	MOVQ $·byteTranspose(SB), AX
	VMOVDQU64 (AX), Z31
	TESTQ CX, CX
	JZ pdone
pgroup:
	VPERMB (SI), Z31, Z0
	VPERMB 64(SI), Z31, Z1
	VPERMB 128(SI), Z31, Z2
	VPERMB 192(SI), Z31, Z3
	VPERMB 256(SI), Z31, Z4
	VPERMB 320(SI), Z31, Z5
	VPERMB 384(SI), Z31, Z6
	VPERMB 448(SI), Z31, Z7
	VPUNPCKLQDQ Z1, Z0, Z8
	VPUNPCKHQDQ Z1, Z0, Z9
	VPUNPCKLQDQ Z3, Z2, Z10
	VPUNPCKHQDQ Z3, Z2, Z11
	VPUNPCKLQDQ Z5, Z4, Z12
	VPUNPCKHQDQ Z5, Z4, Z13
	VPUNPCKLQDQ Z7, Z6, Z14
	VPUNPCKHQDQ Z7, Z6, Z15
	VSHUFI64X2 $0x88, Z10, Z8, Z0
	VSHUFI64X2 $0xdd, Z10, Z8, Z1
	VSHUFI64X2 $0x88, Z11, Z9, Z2
	VSHUFI64X2 $0xdd, Z11, Z9, Z3
	VSHUFI64X2 $0x88, Z14, Z12, Z4
	VSHUFI64X2 $0xdd, Z14, Z12, Z5
	VSHUFI64X2 $0x88, Z15, Z13, Z6
	VSHUFI64X2 $0xdd, Z15, Z13, Z7
	// Z16 … Z23: bytes 0, 4, 2, 6, 1, 5, 3, 7 of the 64 patterns.
	VSHUFI64X2 $0x88, Z4, Z0, Z16
	VSHUFI64X2 $0xdd, Z4, Z0, Z17
	VSHUFI64X2 $0x88, Z5, Z1, Z18
	VSHUFI64X2 $0xdd, Z5, Z1, Z19
	VSHUFI64X2 $0x88, Z6, Z2, Z20
	VSHUFI64X2 $0xdd, Z6, Z2, Z21
	VSHUFI64X2 $0x88, Z7, Z3, Z22
	VSHUFI64X2 $0xdd, Z7, Z3, Z23
	PLANES(Z16, 0)
	PLANES(Z20, 1)
	PLANES(Z18, 2)
	PLANES(Z22, 3)
	PLANES(Z17, 4)
	PLANES(Z21, 5)
	PLANES(Z19, 6)
	PLANES(Z23, 7)
pnext:
	ADDQ $512, SI
	ADDQ $8, DI
	DECQ CX
	JNZ pgroup
pdone:
	VZEROUPPER
	RET

// func rowsAVX512(has, tab, valid *blockRow, k, w int)
//
// The tables of buildTables from the planes has: for each chunk c, row 0
// is valid, and for j < w the rows 2^j … 2^(j+1)−1 are rows 0 … 2^j−1
// without the patterns that have bit c·w+j.
TEXT ·rowsAVX512(SB), NOSPLIT, $0-40
	MOVQ has+0(FP), SI
	MOVQ tab+8(FP), DI
	MOVQ valid+16(FP), AX
	MOVQ k+24(FP), CX
	MOVQ w+32(FP), R8
	VMOVDQU64 (AX), Z0
	MOVQ $64, R9
	SHLXQ R8, R9, R9        // 64·2^w, the bytes of a chunk's table
rchunk:
	VMOVDQU64 Z0, (DI)
	MOVQ $64, R10           // 64·2^j
	XORQ R11, R11           // j
rbit:
	VMOVDQU64 (SI), Z1      // plane c·w+j
	ADDQ $64, SI
	XORQ R12, R12           // 64·u
rrow:
	VPANDNQ (DI)(R12*1), Z1, Z2
	LEAQ (DI)(R10*1), R13
	VMOVDQU64 Z2, (R13)(R12*1)
	ADDQ $64, R12
	CMPQ R12, R10
	JLT rrow
	SHLQ $1, R10
	INCQ R11
	CMPQ R11, R8
	JLT rbit
	ADDQ R9, DI
	DECQ CX
	JNZ rchunk
	VZEROUPPER
	RET

// func compressBMI2(dst, src *uint64, n int, j uint64)
//
// dst[i] = the bits of src[i] that j selects, packed (PEXT).
TEXT ·compressBMI2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ j+24(FP), BX
	TESTQ CX, CX
	JZ cdone
cloop:
	MOVQ (SI), AX
	PEXTQ BX, AX, AX
	MOVQ AX, (DI)
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ cloop
cdone:
	RET

// func offsetsBMI2(dst *uint32, src *uint64, n int, j uint64, k, w int)
//
// rowOffsets of the patterns of src compressed by j: for each, k offsets
// 64·(c<<w | chunk c).
TEXT ·offsetsBMI2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ j+24(FP), BX
	MOVQ k+32(FP), DX
	MOVQ w+40(FP), R8
	MOVQ $1, R11
	SHLXQ R8, R11, R11
	DECQ R11                // chunk mask 2^w − 1
	MOVQ $64, R12
	SHLXQ R8, R12, R12      // 64·2^w
	TESTQ CX, CX
	JZ odone
oloop:
	MOVQ (SI), AX
	PEXTQ BX, AX, AX
	XORQ R9, R9             // 64·(c<<w)
	MOVQ DX, R13
ochunk:
	MOVQ AX, R10
	ANDQ R11, R10
	SHLQ $6, R10
	ADDQ R9, R10
	MOVL R10, (DI)
	ADDQ $4, DI
	SHRXQ R8, AX, AX
	ADDQ R12, R9
	DECQ R13
	JNZ ochunk
	ADDQ $8, SI
	DECQ CX
	JNZ oloop
odone:
	RET

// func joinAVX512(out, out0, t0, t1 *uint64, nt int, inner, sm uint64, b0, b1 *uint64, nb int) int
//
// joinCellGo for each top entry i < nt whose t0 misses sm, eight bottom
// entries at a time: the t1 | b1 of those whose b0 misses t0 & inner | sm
// are left-packed (VPCOMPRESSQ) into out, and their t0 | b0 into out0 if
// it is not nil; both have room for 8 more than they get. Returns the
// number written.
TEXT ·joinAVX512(SB), NOSPLIT, $0-88
	MOVQ out+0(FP), DI
	MOVQ t0+16(FP), R8
	MOVQ t1+24(FP), R9
	MOVQ nt+32(FP), R10
	MOVQ inner+40(FP), R11
	MOVQ sm+48(FP), R12
	MOVQ b0+56(FP), R13
	MOVQ b1+64(FP), R14
	MOVQ nb+72(FP), R15
	MOVQ DI, DX             // start of out
	// K2: the lanes of the last, partial group of eight.
	MOVQ R15, CX
	ANDQ $7, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVB AX, K2
	MOVQ R15, BX
	SHRQ $3, BX             // full groups
	// R15: out0 − out in bytes, or 0 when there is no out0.
	XORQ R15, R15
	MOVQ out0+8(FP), AX
	TESTQ AX, AX
	JZ jstart
	MOVQ AX, R15
	SUBQ DI, R15
jstart:
	TESTQ R10, R10
	JZ jdone
jtop:
	MOVQ (R8), AX
	TESTQ R12, AX
	JNZ jnext
	VPBROADCASTQ AX, Z6
	ANDQ R11, AX
	ORQ R12, AX
	VPBROADCASTQ AX, Z1
	VPBROADCASTQ (R9), Z2
	XORQ SI, SI             // byte offset in the bottom list
	MOVQ BX, CX
	TESTQ CX, CX
	JZ jtail
jgroup:
	VMOVDQU64 (R13)(SI*1), Z3
	VPTESTNMQ Z1, Z3, K1
	VPORQ (R14)(SI*1), Z2, Z4
	VPCOMPRESSQ Z4, K1, Z5
	VMOVDQU64 Z5, (DI)
	TESTQ R15, R15
	JZ jcount
	VPORQ Z3, Z6, Z4
	VPCOMPRESSQ Z4, K1, Z5
	VMOVDQU64 Z5, (DI)(R15*1)
jcount:
	KMOVB K1, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*8), DI
	ADDQ $64, SI
	DECQ CX
	JNZ jgroup
jtail:
	KORTESTB K2, K2
	JZ jnext
	VMOVDQU64.Z (R13)(SI*1), K2, Z3
	VPTESTNMQ Z1, Z3, K2, K1
	VMOVDQU64.Z (R14)(SI*1), K2, Z4
	VPORQ Z4, Z2, Z4
	VPCOMPRESSQ Z4, K1, Z5
	VMOVDQU64 Z5, (DI)
	TESTQ R15, R15
	JZ jtcount
	VPORQ Z3, Z6, Z4
	VPCOMPRESSQ Z4, K1, Z5
	VMOVDQU64 Z5, (DI)(R15*1)
jtcount:
	KMOVB K1, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*8), DI
jnext:
	ADDQ $8, R8
	ADDQ $8, R9
	DECQ R10
	JNZ jtop
jdone:
	SUBQ DX, DI
	SHRQ $3, DI
	MOVQ DI, ret+80(FP)
	VZEROUPPER
	RET

// func filterAVX512(dst, src, w0 *uint64, n int, sm uint64) int
//
// filterGo eight at a time; dst has room for n + 8. Returns the number
// written.
TEXT ·filterAVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ w0+16(FP), R8
	MOVQ n+24(FP), CX
	VPBROADCASTQ sm+32(FP), Z1
	MOVQ DI, DX
	MOVQ CX, BX
	ANDQ $7, BX
	MOVQ $1, AX
	SHLXQ BX, AX, AX
	DECQ AX
	KMOVB AX, K2
	SHRQ $3, CX
	JZ ftail
fgroup:
	VPTESTNMQ (R8), Z1, K1
	VMOVDQU64 (SI), Z3
	VPCOMPRESSQ Z3, K1, Z5
	VMOVDQU64 Z5, (DI)
	KMOVB K1, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*8), DI
	ADDQ $64, SI
	ADDQ $64, R8
	DECQ CX
	JNZ fgroup
ftail:
	KORTESTB K2, K2
	JZ fdone
	VMOVDQU64.Z (R8), K2, Z3
	VPTESTNMQ Z3, Z1, K2, K1
	VMOVDQU64.Z (SI), K2, Z3
	VPCOMPRESSQ Z3, K1, Z5
	VMOVDQU64 Z5, (DI)
	KMOVB K1, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*8), DI
fdone:
	SUBQ DX, DI
	SHRQ $3, DI
	MOVQ DI, ret+40(FP)
	VZEROUPPER
	RET

// func reverseAVX512(xs *uint64, n, shift int)
//
// reverseGo eight at a time: the bits of each byte reversed by a Galois
// field affine map, the bytes of each word by VPSHUFB.
TEXT ·reverseAVX512(SB), NOSPLIT, $0-24
	MOVQ xs+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ shift+16(FP), X7
	MOVQ $0x8040201008040201, AX
	VPBROADCASTQ AX, Z1
	MOVQ $·byteReverse(SB), AX
	VMOVDQU64 (AX), Z2
	MOVQ CX, BX
	ANDQ $7, BX
	MOVQ $1, AX
	SHLXQ BX, AX, AX
	DECQ AX
	KMOVB AX, K2
	SHRQ $3, CX
	JZ rtail
rgroup:
	VMOVDQU64 (DI), Z3
	VGF2P8AFFINEQB $0, Z1, Z3, Z3
	VPSHUFB Z2, Z3, Z3
	VPSRLQ X7, Z3, Z3
	VMOVDQU64 Z3, (DI)
	ADDQ $64, DI
	DECQ CX
	JNZ rgroup
rtail:
	KORTESTB K2, K2
	JZ rdone
	VMOVDQU64.Z (DI), K2, Z3
	VGF2P8AFFINEQB $0, Z1, Z3, Z3
	VPSHUFB Z2, Z3, Z3
	VPSRLQ X7, Z3, Z3
	VMOVDQU64 Z3, K2, (DI)
rdone:
	VZEROUPPER
	RET

// func cutValuesBMI2(dst *uint8, src *uint64, n int, mask uint64)
//
// dst[i] = the bits of src[i] that mask selects, packed (PEXT).
TEXT ·cutValuesBMI2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ mask+24(FP), BX
	TESTQ CX, CX
	JZ vdone
vloop:
	MOVQ (SI), AX
	PEXTQ BX, AX, AX
	MOVB AX, (DI)
	ADDQ $8, SI
	INCQ DI
	DECQ CX
	JNZ vloop
vdone:
	RET

// func countK1AVX2(tab *blockRow, offs *uint32, n int) uint64
TEXT ·countK1AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	TAIL2(1)
	END2

TEXT ·countK2AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	ROW2(1)
	TAIL2(2)
	END2

TEXT ·countK3AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	ROW2(1)
	ROW2(2)
	TAIL2(3)
	END2

TEXT ·countK4AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	ROW2(1)
	ROW2(2)
	ROW2(3)
	TAIL2(4)
	END2

TEXT ·countK5AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	ROW2(1)
	ROW2(2)
	ROW2(3)
	ROW2(4)
	TAIL2(5)
	END2

TEXT ·countK6AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	ROW2(1)
	ROW2(2)
	ROW2(3)
	ROW2(4)
	ROW2(5)
	TAIL2(6)
	END2

TEXT ·countK7AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	ROW2(1)
	ROW2(2)
	ROW2(3)
	ROW2(4)
	ROW2(5)
	ROW2(6)
	TAIL2(7)
	END2

TEXT ·countK8AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	ROW2(1)
	ROW2(2)
	ROW2(3)
	ROW2(4)
	ROW2(5)
	ROW2(6)
	ROW2(7)
	TAIL2(8)
	END2

TEXT ·countK9AVX2(SB), NOSPLIT, $0-32
	HEAD2
loop:
	FIRST2
	ROW2(1)
	ROW2(2)
	ROW2(3)
	ROW2(4)
	ROW2(5)
	ROW2(6)
	ROW2(7)
	ROW2(8)
	TAIL2(9)
	END2

// func rowsAVX2(has, tab, valid *blockRow, k, w int)
//
// rowsAVX512 in two 256-bit halves.
TEXT ·rowsAVX2(SB), NOSPLIT, $0-40
	MOVQ has+0(FP), SI
	MOVQ tab+8(FP), DI
	MOVQ valid+16(FP), AX
	MOVQ k+24(FP), CX
	MOVQ w+32(FP), R8
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y3
	MOVQ $64, R9
	SHLXQ R8, R9, R9        // 64·2^w, the bytes of a chunk's table
r2chunk:
	VMOVDQU Y0, (DI)
	VMOVDQU Y3, 32(DI)
	MOVQ $64, R10           // 64·2^j
	XORQ R11, R11           // j
r2bit:
	VMOVDQU (SI), Y1        // plane c·w+j
	VMOVDQU 32(SI), Y4
	ADDQ $64, SI
	XORQ R12, R12           // 64·u
r2row:
	VPANDN (DI)(R12*1), Y1, Y2
	VPANDN 32(DI)(R12*1), Y4, Y5
	LEAQ (DI)(R10*1), R13
	VMOVDQU Y2, (R13)(R12*1)
	VMOVDQU Y5, 32(R13)(R12*1)
	ADDQ $64, R12
	CMPQ R12, R10
	JLT r2row
	SHLQ $1, R10
	INCQ R11
	CMPQ R11, R8
	JLT r2bit
	ADDQ R9, DI
	DECQ CX
	JNZ r2chunk
	VZEROUPPER
	RET
