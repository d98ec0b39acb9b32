//go:build !purego

#include "go_asm.h"
#include "textflag.h"

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
