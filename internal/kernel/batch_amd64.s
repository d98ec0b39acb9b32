#include "textflag.h"

// Offsets of level's arrays (batch.go), batchCap = 256 words each.
#define LOCC 0
#define LD 2048
#define LA 4096
#define LREM 6144
#define LAVAIL 8192
#define LROW 10240

// popcount of each nibble value, for VPSHUFB.
DATA nibbleCount<>+0(SB)/8, $0x0302020102010100
DATA nibbleCount<>+8(SB)/8, $0x0403030203020201
GLOBL nibbleCount<>(SB), RODATA|NOPTR, $16

// POPCNT(x, t) replaces the four words of x by their bit counts; t is
// clobbered. Y11 holds 0x0f in every byte, Y12 the nibble counts, Y15 zero.
#define POPCNT(x, t) \
	VPAND Y11, x, t; \
	VPSRLQ $4, x, x; \
	VPAND Y11, x, x; \
	VPSHUFB t, Y12, t; \
	VPSHUFB x, Y12, x; \
	VPADDB x, t, x; \
	VPSADBW Y15, x, x

// func chooseAVX2(L *level, m int, nm1 uint64, k int) (children uint64)
//
// chooseBatch four nodes at a time, one in each 64-bit lane. A row's index
// comes from the exponent of its bit converted to float (rows < 32, so
// the bit is in the low half of the lane, whose high half converts to 0).
TEXT ·chooseAVX2(SB), NOSPLIT, $0-40
	MOVQ L+0(FP), DI
	MOVQ m+8(FP), DX
	MOVQ nm1+16(FP), AX
	MOVQ k+24(FP), BX

	MOVQ $0x0f0f0f0f0f0f0f0f, CX
	VMOVQ CX, X11
	VPBROADCASTQ X11, Y11
	VBROADCASTI128 nibbleCount<>(SB), Y12
	ADDQ $127, AX
	VMOVQ AX, X13
	VPBROADCASTQ X13, Y13     // N − 1 + 127
	MOVQ $127, CX
	VMOVQ CX, X14
	VPBROADCASTQ X14, Y14
	VPXOR Y15, Y15, Y15
	XORQ R8, R8               // byte offset of the group
	XORQ R9, R9               // children
	SHLQ $3, DX               // m in bytes

group:
	CMPQ R8, DX
	JGE done
	VMOVDQU LOCC(DI)(R8*1), Y0
	VMOVDQU LD(DI)(R8*1), Y1
	VMOVDQU LA(DI)(R8*1), Y2
	VMOVDQU LREM(DI)(R8*1), Y3
	VPCMPEQQ Y4, Y4, Y4       // smallest key so far
	VPXOR Y5, Y5, Y5          // cover
	MOVQ BX, CX

row:
	VPSUBQ Y3, Y15, Y6
	VPAND Y3, Y6, Y6          // the lowest row left
	VPXOR Y6, Y3, Y3
	VCVTDQ2PS Y6, Y6
	VPSRLD $23, Y6, Y6        // its index + 127
	VPSUBQ Y14, Y6, Y7        // r
	VPSUBQ Y6, Y13, Y8        // N − 1 − r
	VPSRLVQ Y8, Y1, Y9
	VPSRLVQ Y7, Y2, Y10
	VPOR Y9, Y10, Y9
	VPOR Y0, Y9, Y9           // attacked squares of row r
	VPSUBD Y8, Y7, Y8         // 2r − (N − 1)
	VPABSD Y8, Y8
	VPSLLD $6, Y8, Y8
	VPOR Y7, Y8, Y8           // rank of r
	VPCMPEQQ Y10, Y10, Y10
	VPXOR Y10, Y9, Y9         // free squares
	VPOR Y9, Y5, Y5
	POPCNT(Y9, Y10)
	VPSLLQ $12, Y9, Y9
	VPOR Y8, Y9, Y9           // key (low 32 bits)
	VPMINUD Y9, Y4, Y4
	DECQ CX
	JNZ row

	// The chosen row and its squares, none for a dead end.
	MOVQ $63, CX
	VMOVQ CX, X6
	VPBROADCASTQ X6, Y6
	VPAND Y6, Y4, Y7          // row
	VPSUBQ Y14, Y13, Y8
	VPSUBQ Y7, Y8, Y8         // N − 1 − row
	VPSRLVQ Y8, Y1, Y8
	VPSRLVQ Y7, Y2, Y9
	VPOR Y8, Y9, Y8
	VPOR Y0, Y8, Y8           // attacked squares of row
	VPSLLQ $32, Y4, Y9
	VPSRLQ $44, Y9, Y9
	VPCMPEQQ Y15, Y9, Y9      // a row has no free square
	VPCMPEQQ Y6, Y6, Y6
	VPOR Y0, Y5, Y10
	VPCMPEQQ Y6, Y10, Y10     // every free column has a row
	VPANDN Y10, Y8, Y8
	VPANDN Y8, Y9, Y8         // avail
	VMOVDQU Y8, LAVAIL(DI)(R8*1)
	VMOVDQU Y7, LROW(DI)(R8*1)
	POPCNT(Y8, Y9)
	VEXTRACTI128 $1, Y8, X9
	VPADDQ X9, X8, X8
	VPSRLDQ $8, X8, X9
	VPADDQ X9, X8, X8
	VMOVQ X8, CX
	ADDQ CX, R9
	ADDQ $32, R8
	JMP group

done:
	VZEROUPPER
	MOVQ R9, children+32(FP)
	RET
