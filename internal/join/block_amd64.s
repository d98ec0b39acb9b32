//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// PLANES(z, k) stores the planes of byte k, held for 64 patterns in z,
// when k < nbytes (DX): plane 8k+b at has + (8k+b)·const_blockBytes (DI is has plus the
// group's word).
#define PLANES(z, k) \
	CMPQ DX, $k; \
	JLE pnext; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+7)*const_blockBytes)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+6)*const_blockBytes)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+5)*const_blockBytes)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+4)*const_blockBytes)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+3)*const_blockBytes)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+2)*const_blockBytes)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k+1)*const_blockBytes)(DI); \
	VPADDB z, z, z; \
	VPMOVB2M z, K1; \
	KMOVQ K1, ((8*k)*const_blockBytes)(DI)

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
	ADDQ $const_groupBytes, SI
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
// without the patterns that have bit c·w+j; chunk c's table starts
// const_chunkBytes·c into tab.
TEXT ·rowsAVX512(SB), NOSPLIT, $0-40
	MOVQ has+0(FP), SI
	MOVQ tab+8(FP), DI
	MOVQ valid+16(FP), AX
	MOVQ k+24(FP), CX
	MOVQ w+32(FP), R8
	VMOVDQU64 (AX), Z0
rchunk:
	VMOVDQU64 Z0, (DI)
	MOVQ $const_blockBytes, R10 // 2^j rows
	XORQ R11, R11           // j
rbit:
	VMOVDQU64 (SI), Z1      // plane c·w+j
	ADDQ $const_blockBytes, SI
	XORQ R12, R12           // row u
rrow:
	VPANDNQ (DI)(R12*1), Z1, Z2
	LEAQ (DI)(R10*1), R13
	VMOVDQU64 Z2, (R13)(R12*1)
	ADDQ $const_blockBytes, R12
	CMPQ R12, R10
	JLT rrow
	SHLQ $1, R10
	INCQ R11
	CMPQ R11, R8
	JLT rbit
	ADDQ $const_chunkBytes, DI
	DECQ CX
	JNZ rchunk
	VZEROUPPER
	RET

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
r2chunk:
	VMOVDQU Y0, (DI)
	VMOVDQU Y3, 32(DI)
	MOVQ $const_blockBytes, R10 // 2^j rows
	XORQ R11, R11           // j
r2bit:
	VMOVDQU (SI), Y1        // plane c·w+j
	VMOVDQU 32(SI), Y4
	ADDQ $const_blockBytes, SI
	XORQ R12, R12           // row u
r2row:
	VPANDN (DI)(R12*1), Y1, Y2
	VPANDN 32(DI)(R12*1), Y4, Y5
	LEAQ (DI)(R10*1), R13
	VMOVDQU Y2, (R13)(R12*1)
	VMOVDQU Y5, 32(R13)(R12*1)
	ADDQ $const_blockBytes, R12
	CMPQ R12, R10
	JLT r2row
	SHLQ $1, R10
	INCQ R11
	CMPQ R11, R8
	JLT r2bit
	ADDQ $const_chunkBytes, DI
	DECQ CX
	JNZ r2chunk
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

// func compress32BMI2(dst *uint32, src *uint64, n int, j uint64)
//
// compressBMI2 into 32-bit patterns (j has at most 32 bits), four at a
// time: the narrow sieve packs some 10⁹ patterns at N = 27, and the loop
// of one took two cycles a pattern.
TEXT ·compress32BMI2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ j+24(FP), BX
	MOVQ CX, R9
	SHRQ $2, R9
	JZ c4tail
c4loop:
	MOVQ (SI), AX
	MOVQ 8(SI), DX
	MOVQ 16(SI), R10
	MOVQ 24(SI), R11
	PEXTQ BX, AX, AX
	PEXTQ BX, DX, DX
	PEXTQ BX, R10, R10
	PEXTQ BX, R11, R11
	MOVL AX, (DI)
	MOVL DX, 4(DI)
	MOVL R10, 8(DI)
	MOVL R11, 12(DI)
	ADDQ $32, SI
	LEAQ 16(DI), DI
	DECQ R9
	JNZ c4loop
c4tail:
	ANDQ $3, CX
	JZ c4done
c1loop:
	MOVQ (SI), AX
	PEXTQ BX, AX, AX
	MOVL AX, (DI)
	ADDQ $8, SI
	ADDQ $4, DI
	DECQ CX
	JNZ c1loop
c4done:
	RET

// func widenAVX512(dst *uint64, src *uint32, n int)
//
// dst[i] = src[i], eight at a time: the last vector reads up to 7
// patterns past n from src and writes them past n into dst, which both
// have room for.
TEXT ·widenAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	ADDQ $7, CX
	SHRQ $3, CX
	JZ wdone
wloop:
	VPMOVZXDQ (SI), Z0
	VMOVDQU64 Z0, (DI)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ wloop
wdone:
	VZEROUPPER
	RET
