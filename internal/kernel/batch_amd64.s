//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// Local constants of chooseAVX2 on its stack frame (chooseLocals,
// batch_amd64.go), each in all lanes of a 256-bit vector.
#define K127 chooseLocals_k127(SP)
#define KT chooseLocals_kt(SP)
#define K0F chooseLocals_k0f(SP)
#define KONE8 chooseLocals_kone8(SP)
#define KONE16 chooseLocals_kone16(SP)
#define KROWMASK chooseLocals_krowmask(SP)
#define KNM1Q chooseLocals_knm1q(SP)

// BCASTD(val, off) puts the 32-bit value val (a register, clobbered via
// X8) in all eight lanes of the local constant at off.
#define BCASTD(reg, off) \
	VMOVQ reg, X8; \
	VPBROADCASTD X8, Y8; \
	VMOVDQU Y8, off

// FREE8 sets Y11 to the free squares of the row whose index + 127 is in
// Y8, in eight 32-bit lanes, Y9 to the row and Y8 to N − 1 − row: Y0 the
// free columns, Y1:Y2 the diagonals, Y3:Y4 the anti-diagonals (low:high
// halves), Y13 N − 1 + 127, Y14 32 + 127; Y10 is clobbered. A shift by 32
// or more gives 0, which the halves need (row 0, and N − 1 − row = 0).
#define FREE8 \
	VPSUBD Y8, Y14, Y11; \
	VPSLLVD Y11, Y4, Y11; \
	VPSUBD K127, Y8, Y9; \
	VPSRLVD Y9, Y3, Y10; \
	VPOR Y10, Y11, Y11; \
	VPSUBD KT, Y8, Y10; \
	VPSLLVD Y10, Y2, Y10; \
	VPOR Y10, Y11, Y11; \
	VPSUBD Y8, Y13, Y8; \
	VPSRLVD Y8, Y1, Y10; \
	VPOR Y10, Y11, Y11; \
	VPANDN Y0, Y11, Y11

// NIBBLES(x, t) replaces each byte of x by its bit count; t is clobbered.
// Y12 holds the nibble counts.
#define NIBBLES(x, t) \
	VPAND K0F, x, t; \
	VPSRLD $4, x, x; \
	VPAND K0F, x, x; \
	VPSHUFB t, Y12, t; \
	VPSHUFB x, Y12, x; \
	VPADDB t, x, x

// DEINTERLEAVE(off, lo, hi) loads the eight words of a level array at
// off (from node R8/8 on) and splits them into their low and high 32-bit
// halves, in the lane order 0 1 4 5 2 3 6 7 (VPERMQ $0xd8 restores it);
// Y8 and Y9 are clobbered.
#define DEINTERLEAVE(off, lo, hi) \
	VMOVDQU off(DI)(R8*1), Y8; \
	VMOVDQU off+32(DI)(R8*1), Y9; \
	VSHUFPS $0x88, Y9, Y8, lo; \
	VSHUFPS $0xdd, Y9, Y8, hi

// FIRSTCHILD(off) takes the four nodes at R8+off: their squares in Y8 and
// rows in Y7 (64-bit lanes). It stores the row and the squares but the
// lowest, and puts the child of the lowest square of each node that has
// one into C (SI, next free node at byte R10), left-packed.
#define FIRSTCHILD(off) \
	VMOVDQU Y7, level_row+off(DI)(R8*1); \
	VPSUBQ Y8, Y15, Y9; \
	VPAND Y8, Y9, Y9; \
	VPXOR Y9, Y8, Y8; \
	VMOVDQU Y8, level_avail+off(DI)(R8*1); \
	VMOVDQU level_occ+off(DI)(R8*1), Y0; \
	VMOVDQU level_d+off(DI)(R8*1), Y1; \
	VMOVDQU level_a+off(DI)(R8*1), Y2; \
	VMOVDQU level_rem+off(DI)(R8*1), Y3; \
	VPOR Y9, Y0, Y0; \
	VMOVDQU KNM1Q, Y6; \
	VPSUBQ Y7, Y6, Y6; \
	VPSLLVQ Y6, Y9, Y6; \
	VPOR Y6, Y1, Y1; \
	VPSLLVQ Y7, Y9, Y6; \
	VPOR Y6, Y2, Y2; \
	VPCMPEQQ Y6, Y6, Y6; \
	VPSRLQ $63, Y6, Y6; \
	VPSLLVQ Y7, Y6, Y6; \
	VPANDN Y3, Y6, Y3; \
	VPCMPEQQ Y15, Y9, Y6; \
	VMOVMSKPD Y6, AX; \
	XORQ $15, AX; \
	POPCNTQ AX, R11; \
	SHLQ $5, AX; \
	MOVQ $·leftPack(SB), CX; \
	VMOVDQU (CX)(AX*1), Y6; \
	VPERMD Y0, Y6, Y0; \
	VPERMD Y1, Y6, Y1; \
	VPERMD Y2, Y6, Y2; \
	VPERMD Y3, Y6, Y3; \
	VMOVDQU Y0, level_occ(SI)(R10*1); \
	VMOVDQU Y1, level_d(SI)(R10*1); \
	VMOVDQU Y2, level_a(SI)(R10*1); \
	VMOVDQU Y3, level_rem(SI)(R10*1); \
	SHLQ $3, R11; \
	ADDQ R11, R10

// func chooseAVX2(L *level, m int, nm1 uint64, k int, C *level, cm int) (children uint64, cmOut int)
//
// chooseBatch eight nodes at a time, one in each 32-bit lane (N ≤ 31:
// columns and rows fit in 31 bits, the diagonals in two halves), and then
// firstChildren four at a time in 64-bit lanes: the child of each node's
// lowest square goes into C from index cm on, the other squares stay in
// L's avail. A row's index comes from the exponent of its bit converted to
// float (AVX2 has no per-lane count of trailing zeros).
TEXT ·chooseAVX2(SB), NOSPLIT, $chooseLocals__size-64
	MOVQ C+32(FP), SI
	MOVQ cm+40(FP), R10
	SHLQ $3, R10              // cm in bytes
	MOVQ L+0(FP), DI
	MOVQ m+8(FP), DX
	MOVQ nm1+16(FP), BX
	MOVQ $127, AX
	BCASTD(AX, K127)
	LEAQ 95(BX), AX           // N + 94: 32 − (N − 1 − r) = (r + 127) − (N + 94)
	BCASTD(AX, KT)
	MOVQ $0x0f0f0f0f, AX
	BCASTD(AX, K0F)
	MOVQ $0x01010101, AX
	BCASTD(AX, KONE8)
	MOVQ $0x00010001, AX
	BCASTD(AX, KONE16)
	MOVQ $(1<<const_rankShift-1), AX
	BCASTD(AX, KROWMASK)
	VMOVQ BX, X8
	VPBROADCASTQ X8, Y8
	VMOVDQU Y8, KNM1Q
	LEAQ 127(BX), AX
	VMOVQ AX, X13
	VPBROADCASTD X13, Y13     // N − 1 + 127
	MOVQ $159, AX
	VMOVQ AX, X14
	VPBROADCASTD X14, Y14     // 32 + 127
	MOVQ $·nibbleCount(SB), AX
	VBROADCASTI128 (AX), Y12
	VPXOR Y15, Y15, Y15
	XORQ R8, R8               // byte offset of the group
	XORQ R9, R9               // children
	SHLQ $3, DX               // m in bytes
	MOVQ k+24(FP), BX

group:
	CMPQ R8, DX
	JGE done
	DEINTERLEAVE(level_occ, Y0, Y10)
	VPCMPEQD Y10, Y10, Y10
	VPXOR Y10, Y0, Y0         // free columns
	DEINTERLEAVE(level_d, Y1, Y2)
	DEINTERLEAVE(level_a, Y3, Y4)
	DEINTERLEAVE(level_rem, Y5, Y10)
	VPCMPEQD Y6, Y6, Y6       // smallest key so far
	VPXOR Y7, Y7, Y7          // cover
	MOVQ BX, CX

row:
	VPSUBD Y5, Y15, Y8
	VPAND Y5, Y8, Y8          // the lowest row left
	VPXOR Y8, Y5, Y5
	VCVTDQ2PS Y8, Y8
	VPSRLD $23, Y8, Y8        // its index + 127
	FREE8
	VPOR Y11, Y7, Y7
	VPSUBD Y8, Y9, Y8         // 2r − (N − 1)
	VPABSD Y8, Y8
	VPSLLD $const_rankShift, Y8, Y8
	VPOR Y9, Y8, Y8           // rank of r
	NIBBLES(Y11, Y10)
	VPMADDUBSW KONE8, Y11, Y11
	VPMADDWD KONE16, Y11, Y11 // free squares
	VPSLLD $const_keyShift, Y11, Y11
	VPOR Y8, Y11, Y11         // key
	VPMINUD Y11, Y6, Y6
	DECQ CX
	JNZ row

	// The chosen row and its squares, none for a dead end.
	VPAND KROWMASK, Y6, Y8
	VPADDD K127, Y8, Y8
	FREE8                     // Y11 its squares, Y9 the row
	VPSRLD $const_keyShift, Y6, Y8
	VPCMPEQD Y15, Y8, Y8      // a row has no free square
	VPCMPEQD Y0, Y7, Y7       // every free column has a row
	VPAND Y7, Y11, Y11
	VPANDN Y11, Y8, Y11       // avail
	VPERMQ $0xd8, Y11, Y11
	VPERMQ $0xd8, Y9, Y9
	VMOVDQU Y11, Y10
	NIBBLES(Y10, Y8)
	VPSADBW Y15, Y10, Y10
	VEXTRACTI128 $1, Y10, X8
	VPADDQ X8, X10, X10
	VPSRLDQ $8, X10, X8
	VPADDQ X8, X10, X10
	VMOVQ X10, CX
	ADDQ CX, R9
	VEXTRACTI128 $1, Y11, X4  // squares and rows of nodes 4-7
	VEXTRACTI128 $1, Y9, X5
	VPMOVZXDQ X11, Y8
	VPMOVZXDQ X9, Y7
	FIRSTCHILD(0)
	VPMOVZXDQ X4, Y8
	VPMOVZXDQ X5, Y7
	FIRSTCHILD(32)
	ADDQ $64, R8
	JMP group

done:
	VZEROUPPER
	MOVQ R9, children+48(FP)
	SHRQ $3, R10
	MOVQ R10, cmOut+56(FP)
	RET

// ROWFREE(dst, r) sets dst to the free squares of the lowest row left in
// Y3 (which loses it) and r to that row: Y0 occ, Y4 diagonals, Y5
// anti-diagonals; Y13 N − 1 + 127, Y14 127, Y15 zero; Y10 and Y11 are
// clobbered.
#define ROWFREE(dst, r) \
	VPSUBQ Y3, Y15, dst; \
	VPAND Y3, dst, dst; \
	VPXOR dst, Y3, Y3; \
	VCVTDQ2PS dst, dst; \
	VPSRLD $23, dst, dst; \
	VPSUBQ Y14, dst, r; \
	VPSUBQ dst, Y13, Y10; \
	VPSRLVQ Y10, Y4, Y10; \
	VPSRLVQ r, Y5, Y11; \
	VPOR Y11, Y10, Y10; \
	VPOR Y0, Y10, Y10; \
	VPCMPEQQ Y11, Y11, Y11; \
	VPXOR Y11, Y10, dst

// LAST3STEP takes the lowest square u of A (Y1) in the first row and adds
// −1 to the lanes of Y7 for each of the two ways to place the other two
// queens that fails: Y2 B, Y3 C, Y0 the free columns, Y4 d12, Y5 d13,
// Y6 d23; Y8-Y14 are clobbered.
#define LAST3STEP \
	VPSUBQ Y1, Y15, Y8; \
	VPAND Y1, Y8, Y8; \
	VPXOR Y8, Y1, Y1; \
	VPSLLVQ Y4, Y8, Y9; \
	VPSRLVQ Y4, Y8, Y10; \
	VPOR Y10, Y9, Y9; \
	VPOR Y8, Y9, Y9; \
	VPANDN Y2, Y9, Y9; \
	VPSLLVQ Y5, Y8, Y10; \
	VPSRLVQ Y5, Y8, Y11; \
	VPOR Y11, Y10, Y10; \
	VPOR Y8, Y10, Y10; \
	VPANDN Y3, Y10, Y10; \
	VPXOR Y8, Y0, Y11; \
	VPSUBQ Y11, Y15, Y12; \
	VPAND Y11, Y12, Y12; \
	VPXOR Y12, Y11, Y11; \
	VPAND Y12, Y9, Y13; \
	VPCMPEQQ Y15, Y13, Y13; \
	VPAND Y11, Y10, Y14; \
	VPCMPEQQ Y15, Y14, Y14; \
	VPOR Y14, Y13, Y13; \
	VPAND Y11, Y9, Y9; \
	VPCMPEQQ Y15, Y9, Y9; \
	VPAND Y12, Y10, Y10; \
	VPCMPEQQ Y15, Y10, Y10; \
	VPOR Y10, Y9, Y9; \
	VPSLLVQ Y6, Y12, Y12; \
	VPCMPEQQ Y11, Y12, Y12; \
	VPCMPEQQ Y15, Y8, Y8; \
	VPOR Y8, Y12, Y12; \
	VPOR Y12, Y13, Y13; \
	VPOR Y12, Y9, Y9; \
	VPADDQ Y13, Y7, Y7; \
	VPADDQ Y9, Y7, Y7

// func last3AVX2(L *level, m int, nm1 uint64) (sols uint64)
//
// last3Batch four nodes at a time: each lane counts its six ways to place
// the three queens (u in A: at most three; v and w either way round) and
// subtracts those that fail, so the sum over the lanes is 24 per group
// plus Y7's.
TEXT ·last3AVX2(SB), NOSPLIT, $0-32
	MOVQ L+0(FP), DI
	MOVQ m+8(FP), DX
	MOVQ nm1+16(FP), AX
	ADDQ $127, AX             // N − 1 + 127
	VPXOR Y15, Y15, Y15
	VPXOR Y7, Y7, Y7
	XORQ R8, R8
	XORQ R9, R9               // 24 per group
	SHLQ $3, DX

l3group:
	CMPQ R8, DX
	JGE l3end
	// LAST3STEP clobbers Y13 and Y14.
	VMOVQ AX, X13
	VPBROADCASTQ X13, Y13
	MOVQ $127, CX
	VMOVQ CX, X14
	VPBROADCASTQ X14, Y14
	VMOVDQU level_occ(DI)(R8*1), Y0
	VMOVDQU level_d(DI)(R8*1), Y4
	VMOVDQU level_a(DI)(R8*1), Y5
	VMOVDQU level_rem(DI)(R8*1), Y3
	ROWFREE(Y1, Y12)          // A, r1
	ROWFREE(Y2, Y6)           // B, r2
	ROWFREE(Y9, Y8)           // C, r3
	VMOVDQU Y9, Y3
	VPSUBQ Y12, Y6, Y4        // d12
	VPSUBQ Y12, Y8, Y5        // d13
	VPSUBQ Y6, Y8, Y6         // d23
	VPCMPEQQ Y11, Y11, Y11
	VPXOR Y11, Y0, Y0         // the three free columns
	LAST3STEP
	LAST3STEP
	LAST3STEP
	ADDQ $24, R9
	ADDQ $32, R8
	JMP l3group

l3end:
	VEXTRACTI128 $1, Y7, X8
	VPADDQ X8, X7, X7
	VPSRLDQ $8, X7, X8
	VPADDQ X8, X7, X7
	VMOVQ X7, CX
	ADDQ CX, R9
	VZEROUPPER
	MOVQ R9, sols+24(FP)
	RET

// func emitRoundAsm(L, C *level, n int, nm1 uint64) (left int)
//
// emitRound without the spills the Go compiler makes: the node's index in
// AX, its squares in BX, the queen in DX, its row in R14, the child's slot
// in R13.
TEXT ·emitRoundAsm(SB), NOSPLIT, $0-40
	MOVQ L+0(FP), DI
	MOVQ C+8(FP), SI
	MOVQ n+16(FP), R12
	MOVQ nm1+24(FP), R11
	MOVQ level_m(SI), R9           // C.m
	XORQ R10, R10             // nodes with squares left
	XORQ R8, R8
	TESTQ R12, R12
	JZ emitted

emit:
	MOVWQZX level_active(DI)(R8*2), AX
	ANDQ $(const_batchCap-1), AX
	MOVQ level_avail(DI)(AX*8), BX
	MOVQ BX, DX
	NEGQ DX
	ANDQ BX, DX               // the queen
	XORQ DX, BX               // the squares left
	MOVQ BX, level_avail(DI)(AX*8)
	MOVW AX, level_active(DI)(R10*2)
	NEGQ BX
	ADCQ $0, R10              // kept in front if it has squares left
	MOVQ R9, R13
	ANDQ $(const_batchCap-1), R13
	MOVQ level_row(DI)(AX*8), R14
	ANDQ $63, R14
	MOVQ R11, CX
	SUBQ R14, CX
	ANDQ $63, CX
	MOVQ DX, BX
	SHLQ CX, BX
	ORQ level_d(DI)(AX*8), BX
	MOVQ BX, level_d(SI)(R13*8)
	MOVQ R14, CX
	MOVQ DX, BX
	SHLQ CX, BX
	ORQ level_a(DI)(AX*8), BX
	MOVQ BX, level_a(SI)(R13*8)
	MOVQ level_rem(DI)(AX*8), BX
	BTRQ CX, BX
	MOVQ BX, level_rem(SI)(R13*8)
	MOVQ level_occ(DI)(AX*8), BX
	ORQ DX, BX
	MOVQ BX, level_occ(SI)(R13*8)
	INCQ R9
	INCQ R8
	CMPQ R8, R12
	JLT emit

emitted:
	MOVQ R9, level_m(SI)
	MOVQ R10, left+32(FP)
	RET
