//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// The count of a leaf: for each y, the rows of its chunks ANDed and the
// patterns left counted. A y's chunks come from y itself: PEXT by the
// leaf's bits, then PDEP spreads chunks 0 … 3 (and, shifted down by 4w,
// chunks 4 … 7) into the 16-bit lanes of a register as row offsets (row ×
// 64 bytes); chunk c's table starts const_chunkBytes·c into the tables.
//
// Registers: DI the tables, SI the ys, CX the ys left, R8 the leaf's bits,
// R9 and R10 the spread masks of chunks 0 … 3 and 4 … 7, R11 4w, R13 the
// bytes from one y to the next (8, or 4 for the narrow sieve's 32-bit
// ys: a y is read as 64 bits, and PEXT by the leaf's bits, all below 32
// there, drops the next y in the high half); BX and DX the offsets of the
// current y; R12 an offset.

// FHEAD loads the arguments; Z1 counts.
#define FHEAD \
	MOVQ tab+0(FP), DI; \
	MOVQ ys+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ j+24(FP), R8; \
	MOVQ lo+32(FP), R9; \
	MOVQ hi+40(FP), R10; \
	MOVQ w4+48(FP), R11; \
	MOVQ stride+56(FP), R13; \
	VPXORQ Z1, Z1, Z1; \
	TESTQ CX, CX; \
	JZ done

// FLOAD spreads the first four chunks of the current y into BX.
#define FLOAD \
	MOVQ (SI), AX; \
	PEXTQ R8, AX, AX; \
	PDEPQ R9, AX, BX

// FLOADHI spreads chunks 4 … 7 into DX.
#define FLOADHI \
	SHRXQ R11, AX, AX; \
	PDEPQ R10, AX, DX

// FIRST starts Z0 with the row of chunk 0.
#define FIRST \
	MOVWQZX BX, R12; \
	VMOVDQU64 (DI)(R12*1), Z0

// ROW(reg, c) ANDs into Z0 the row of chunk c, whose offset is the next
// 16 bits of reg (SHIFT first, except for the first chunk of DX).
#define SHIFT(reg) \
	SHRQ $const_offsetBits, reg
#define ROW(reg, c) \
	MOVWQZX reg, R12; \
	VPANDQ (c*const_chunkBytes)(DI)(R12*1), Z0, Z0

// TAIL counts the patterns left in Z0 and moves to the next y.
#define TAIL \
	VPOPCNTQ Z0, Z0; \
	VPADDQ Z0, Z1, Z1; \
	ADDQ R13, SI; \
	DECQ CX; \
	JNZ loop

#define END \
done: \
	VEXTRACTI64X4 $1, Z1, Y2; \
	VPADDQ Y2, Y1, Y1; \
	VEXTRACTI128 $1, Y1, X2; \
	VPADDQ X2, X1, X1; \
	VPSHUFD $0x4e, X1, X2; \
	VPADDQ X2, X1, X1; \
	VMOVQ X1, AX; \
	MOVQ AX, ret+64(FP); \
	VZEROUPPER; \
	RET

// The same in AVX2: a row in two 256-bit halves (Y0, Y1), the bits counted
// by nibbles (VPSHUFB with the table in Y14, the mask 0x0f in Y15), summed
// per 64-bit lane by VPSADBW into Y12.
#define FHEAD2 \
	MOVQ tab+0(FP), DI; \
	MOVQ ys+8(FP), SI; \
	MOVQ n+16(FP), CX; \
	MOVQ j+24(FP), R8; \
	MOVQ lo+32(FP), R9; \
	MOVQ hi+40(FP), R10; \
	MOVQ w4+48(FP), R11; \
	MOVQ stride+56(FP), R13; \
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
	MOVWQZX BX, R12; \
	VMOVDQU (DI)(R12*1), Y0; \
	VMOVDQU 32(DI)(R12*1), Y1

#define ROW2(reg, c) \
	MOVWQZX reg, R12; \
	VPAND (c*const_chunkBytes)(DI)(R12*1), Y0, Y0; \
	VPAND (c*const_chunkBytes+32)(DI)(R12*1), Y1, Y1

#define TAIL2 \
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
	ADDQ R13, SI; \
	DECQ CX; \
	JNZ loop

#define END2 \
done: \
	VEXTRACTI128 $1, Y12, X2; \
	VPADDQ X2, X12, X12; \
	VPSHUFD $0x4e, X12, X2; \
	VPADDQ X2, X12, X12; \
	VMOVQ X12, AX; \
	MOVQ AX, ret+64(FP); \
	VZEROUPPER; \
	RET

// func countK1AVX512(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4 int) uint64
//
// countBlockGo for k = 1 … 8 chunks in AVX-512.
TEXT ·countK1AVX512(SB), NOSPLIT, $0-72
	FHEAD
loop:
	FLOAD
	FIRST
	TAIL
	END

TEXT ·countK2AVX512(SB), NOSPLIT, $0-72
	FHEAD
loop:
	FLOAD
	FIRST
	SHIFT(BX)
	ROW(BX, 1)
	TAIL
	END

TEXT ·countK3AVX512(SB), NOSPLIT, $0-72
	FHEAD
loop:
	FLOAD
	FIRST
	SHIFT(BX)
	ROW(BX, 1)
	SHIFT(BX)
	ROW(BX, 2)
	TAIL
	END

TEXT ·countK4AVX512(SB), NOSPLIT, $0-72
	FHEAD
loop:
	FLOAD
	FIRST
	SHIFT(BX)
	ROW(BX, 1)
	SHIFT(BX)
	ROW(BX, 2)
	SHIFT(BX)
	ROW(BX, 3)
	TAIL
	END

TEXT ·countK5AVX512(SB), NOSPLIT, $0-72
	FHEAD
loop:
	FLOAD
	FLOADHI
	FIRST
	SHIFT(BX)
	ROW(BX, 1)
	SHIFT(BX)
	ROW(BX, 2)
	SHIFT(BX)
	ROW(BX, 3)
	ROW(DX, 4)
	TAIL
	END

TEXT ·countK6AVX512(SB), NOSPLIT, $0-72
	FHEAD
loop:
	FLOAD
	FLOADHI
	FIRST
	SHIFT(BX)
	ROW(BX, 1)
	SHIFT(BX)
	ROW(BX, 2)
	SHIFT(BX)
	ROW(BX, 3)
	ROW(DX, 4)
	SHIFT(DX)
	ROW(DX, 5)
	TAIL
	END

TEXT ·countK7AVX512(SB), NOSPLIT, $0-72
	FHEAD
loop:
	FLOAD
	FLOADHI
	FIRST
	SHIFT(BX)
	ROW(BX, 1)
	SHIFT(BX)
	ROW(BX, 2)
	SHIFT(BX)
	ROW(BX, 3)
	ROW(DX, 4)
	SHIFT(DX)
	ROW(DX, 5)
	SHIFT(DX)
	ROW(DX, 6)
	TAIL
	END

TEXT ·countK8AVX512(SB), NOSPLIT, $0-72
	FHEAD
loop:
	FLOAD
	FLOADHI
	FIRST
	SHIFT(BX)
	ROW(BX, 1)
	SHIFT(BX)
	ROW(BX, 2)
	SHIFT(BX)
	ROW(BX, 3)
	ROW(DX, 4)
	SHIFT(DX)
	ROW(DX, 5)
	SHIFT(DX)
	ROW(DX, 6)
	SHIFT(DX)
	ROW(DX, 7)
	TAIL
	END


// func countK1AVX2(tab *blockRow, ys *uint64, n int, j, lo, hi uint64, w4 int) uint64
//
// countBlockGo for k = 1 … 8 chunks in AVX2.
TEXT ·countK1AVX2(SB), NOSPLIT, $0-72
	FHEAD2
loop:
	FLOAD
	FIRST2
	TAIL2
	END2

TEXT ·countK2AVX2(SB), NOSPLIT, $0-72
	FHEAD2
loop:
	FLOAD
	FIRST2
	SHIFT(BX)
	ROW2(BX, 1)
	TAIL2
	END2

TEXT ·countK3AVX2(SB), NOSPLIT, $0-72
	FHEAD2
loop:
	FLOAD
	FIRST2
	SHIFT(BX)
	ROW2(BX, 1)
	SHIFT(BX)
	ROW2(BX, 2)
	TAIL2
	END2

TEXT ·countK4AVX2(SB), NOSPLIT, $0-72
	FHEAD2
loop:
	FLOAD
	FIRST2
	SHIFT(BX)
	ROW2(BX, 1)
	SHIFT(BX)
	ROW2(BX, 2)
	SHIFT(BX)
	ROW2(BX, 3)
	TAIL2
	END2

TEXT ·countK5AVX2(SB), NOSPLIT, $0-72
	FHEAD2
loop:
	FLOAD
	FLOADHI
	FIRST2
	SHIFT(BX)
	ROW2(BX, 1)
	SHIFT(BX)
	ROW2(BX, 2)
	SHIFT(BX)
	ROW2(BX, 3)
	ROW2(DX, 4)
	TAIL2
	END2

TEXT ·countK6AVX2(SB), NOSPLIT, $0-72
	FHEAD2
loop:
	FLOAD
	FLOADHI
	FIRST2
	SHIFT(BX)
	ROW2(BX, 1)
	SHIFT(BX)
	ROW2(BX, 2)
	SHIFT(BX)
	ROW2(BX, 3)
	ROW2(DX, 4)
	SHIFT(DX)
	ROW2(DX, 5)
	TAIL2
	END2

TEXT ·countK7AVX2(SB), NOSPLIT, $0-72
	FHEAD2
loop:
	FLOAD
	FLOADHI
	FIRST2
	SHIFT(BX)
	ROW2(BX, 1)
	SHIFT(BX)
	ROW2(BX, 2)
	SHIFT(BX)
	ROW2(BX, 3)
	ROW2(DX, 4)
	SHIFT(DX)
	ROW2(DX, 5)
	SHIFT(DX)
	ROW2(DX, 6)
	TAIL2
	END2

TEXT ·countK8AVX2(SB), NOSPLIT, $0-72
	FHEAD2
loop:
	FLOAD
	FLOADHI
	FIRST2
	SHIFT(BX)
	ROW2(BX, 1)
	SHIFT(BX)
	ROW2(BX, 2)
	SHIFT(BX)
	ROW2(BX, 3)
	ROW2(DX, 4)
	SHIFT(DX)
	ROW2(DX, 5)
	SHIFT(DX)
	ROW2(DX, 6)
	SHIFT(DX)
	ROW2(DX, 7)
	TAIL2
	END2
