//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// ORLANES(z, y) leaves in AX the OR of the eight lanes of z (y is its low
// half): the ORs of the patterns a loop kept in one vector.
#define ORLANES(z, y) \
	VEXTRACTI64X4 $1, z, Y1; \
	VPORQ Y1, y, Y1; \
	VEXTRACTI128 $1, Y1, X2; \
	VPOR X2, X1, X1; \
	VPSHUFD $0x4e, X1, X2; \
	VPOR X2, X1, X1; \
	VMOVQ X1, AX

// func partitionAVX512(xs, ones *uint64, n int, b uint8) (n0 int, or0, or1 uint64)
//
// partitionGo: eight patterns at a time, those without bit b left-packed
// (VPCOMPRESSQ) to the front of xs, those with it to ones (room for
// n + 8); their ORs kept by masked ORs. A store of
// eight lanes to the front never passes the vector just read; the last
// partial vector's is masked, as the patterns past n are another part's.
TEXT ·partitionAVX512(SB), NOSPLIT, $0-56
	MOVQ xs+0(FP), SI
	MOVQ ones+8(FP), R8
	MOVQ n+16(FP), CX
	MOVBQZX b+24(FP), AX
	MOVQ $1, DX
	SHLXQ AX, DX, DX
	VPBROADCASTQ DX, Z31
	MOVQ SI, DI
	VPXORQ Z29, Z29, Z29
	VPXORQ Z30, Z30, Z30
	MOVQ CX, R9
	SHRQ $3, R9
	JZ ptail
ploop:
	VMOVDQU64 (SI), Z0
	VPTESTMQ Z31, Z0, K1
	VPTESTNMQ Z31, Z0, K2
	VPCOMPRESSQ Z0, K2, Z1
	VPCOMPRESSQ Z0, K1, Z2
	VMOVDQU64 Z1, (DI)
	VMOVDQU64 Z2, (R8)
	VPORQ Z0, Z30, K1, Z30
	VPORQ Z0, Z29, K2, Z29
	KMOVB K2, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*8), DI
	KMOVB K1, BX
	POPCNTL BX, BX
	LEAQ (R8)(BX*8), R8
	ADDQ $64, SI
	DECQ R9
	JNZ ploop
ptail:
	ANDQ $7, CX
	JZ pdone2
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVB AX, K3
	VMOVDQU64.Z (SI), K3, Z0
	VPTESTMQ Z31, Z0, K3, K1
	VPTESTNMQ Z31, Z0, K3, K2
	VPCOMPRESSQ Z0, K2, Z1
	VPCOMPRESSQ Z0, K1, Z2
	KMOVB K2, AX
	POPCNTL AX, AX
	MOVQ $1, DX
	SHLXQ AX, DX, DX
	DECQ DX
	KMOVB DX, K4
	VMOVDQU64 Z1, K4, (DI)
	VMOVDQU64 Z2, (R8)
	VPORQ Z0, Z30, K1, Z30
	VPORQ Z0, Z29, K2, Z29
	LEAQ (DI)(AX*8), DI
pdone2:
	MOVQ xs+0(FP), SI
	SUBQ SI, DI
	SHRQ $3, DI
	MOVQ DI, n0+32(FP)
	ORLANES(Z29, Y29)
	MOVQ AX, or0+40(FP)
	ORLANES(Z30, Y30)
	MOVQ AX, or1+48(FP)
	VZEROUPPER
	RET

// func lackingAVX512(dst, src *uint64, n int, b uint8) (m int, or uint64)
//
// lackingGo: eight patterns at a time, those without bit b left-packed
// (VPCOMPRESSQ) to dst (room for n + 8), their OR kept by a masked OR.
// The last partial vector's lanes past n are masked off.
TEXT ·lackingAVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVBQZX b+24(FP), AX
	MOVQ $1, DX
	SHLXQ AX, DX, DX
	VPBROADCASTQ DX, Z31
	VPXORQ Z29, Z29, Z29
	MOVQ CX, R9
	SHRQ $3, R9
	JZ ltail
lloop:
	VMOVDQU64 (SI), Z0
	VPTESTNMQ Z31, Z0, K2
	VPCOMPRESSQ Z0, K2, Z1
	VMOVDQU64 Z1, (DI)
	VPORQ Z0, Z29, K2, Z29
	KMOVB K2, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*8), DI
	ADDQ $64, SI
	DECQ R9
	JNZ lloop
ltail:
	ANDQ $7, CX
	JZ ldone
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVB AX, K3
	VMOVDQU64.Z (SI), K3, Z0
	VPTESTNMQ Z31, Z0, K3, K2
	VPCOMPRESSQ Z0, K2, Z1
	VMOVDQU64 Z1, (DI)
	VPORQ Z0, Z29, K2, Z29
	KMOVB K2, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*8), DI
ldone:
	MOVQ dst+0(FP), SI
	SUBQ SI, DI
	SHRQ $3, DI
	MOVQ DI, m+32(FP)
	ORLANES(Z29, Y29)
	MOVQ AX, or+40(FP)
	VZEROUPPER
	RET

// ORLANES32 leaves in AX the OR of the sixteen 32-bit lanes of z (y is its
// low half).
#define ORLANES32(z, y) \
	ORLANES(z, y); \
	MOVQ AX, DX; \
	SHRQ $32, DX; \
	ORL DX, AX

// func partition32AVX512(xs, ones *uint32, n int, b uint8) (n0 int, or0, or1 uint32)
//
// partitionAVX512 on 32-bit patterns, sixteen at a time (ones has room
// for n + 16).
TEXT ·partition32AVX512(SB), NOSPLIT, $0-48
	MOVQ xs+0(FP), SI
	MOVQ ones+8(FP), R8
	MOVQ n+16(FP), CX
	MOVBQZX b+24(FP), AX
	MOVL $1, DX
	SHLXL AX, DX, DX
	VPBROADCASTD DX, Z31
	MOVQ SI, DI
	VPXORD Z29, Z29, Z29
	VPXORD Z30, Z30, Z30
	MOVQ CX, R9
	SHRQ $4, R9
	JZ qtail
qloop:
	VMOVDQU32 (SI), Z0
	VPTESTMD Z31, Z0, K1
	VPTESTNMD Z31, Z0, K2
	VPCOMPRESSD Z0, K2, Z1
	VPCOMPRESSD Z0, K1, Z2
	VMOVDQU32 Z1, (DI)
	VMOVDQU32 Z2, (R8)
	VPORD Z0, Z30, K1, Z30
	VPORD Z0, Z29, K2, Z29
	KMOVW K2, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*4), DI
	KMOVW K1, BX
	POPCNTL BX, BX
	LEAQ (R8)(BX*4), R8
	ADDQ $64, SI
	DECQ R9
	JNZ qloop
qtail:
	ANDQ $15, CX
	JZ qdone
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K3
	VMOVDQU32.Z (SI), K3, Z0
	VPTESTMD Z31, Z0, K3, K1
	VPTESTNMD Z31, Z0, K3, K2
	VPCOMPRESSD Z0, K2, Z1
	VPCOMPRESSD Z0, K1, Z2
	KMOVW K2, AX
	POPCNTL AX, AX
	MOVL $1, DX
	SHLXL AX, DX, DX
	DECL DX
	KMOVW DX, K4
	VMOVDQU32 Z1, K4, (DI)
	VMOVDQU32 Z2, (R8)
	VPORD Z0, Z30, K1, Z30
	VPORD Z0, Z29, K2, Z29
	LEAQ (DI)(AX*4), DI
qdone:
	MOVQ xs+0(FP), SI
	SUBQ SI, DI
	SHRQ $2, DI
	MOVQ DI, n0+32(FP)
	ORLANES32(Z29, Y29)
	MOVL AX, or0+40(FP)
	ORLANES32(Z30, Y30)
	MOVL AX, or1+44(FP)
	VZEROUPPER
	RET

// func lacking32AVX512(dst, src *uint32, n int, b uint8) (m int, or uint32)
//
// lackingAVX512 on 32-bit patterns, sixteen at a time (dst has room for
// n + 16).
TEXT ·lacking32AVX512(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVBQZX b+24(FP), AX
	MOVL $1, DX
	SHLXL AX, DX, DX
	VPBROADCASTD DX, Z31
	VPXORD Z29, Z29, Z29
	MOVQ CX, R9
	SHRQ $4, R9
	JZ mtail
mloop:
	VMOVDQU32 (SI), Z0
	VPTESTNMD Z31, Z0, K2
	VPCOMPRESSD Z0, K2, Z1
	VMOVDQU32 Z1, (DI)
	VPORD Z0, Z29, K2, Z29
	KMOVW K2, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*4), DI
	ADDQ $64, SI
	DECQ R9
	JNZ mloop
mtail:
	ANDQ $15, CX
	JZ mdone
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K3
	VMOVDQU32.Z (SI), K3, Z0
	VPTESTNMD Z31, Z0, K3, K2
	VPCOMPRESSD Z0, K2, Z1
	VMOVDQU32 Z1, (DI)
	VPORD Z0, Z29, K2, Z29
	KMOVW K2, AX
	POPCNTL AX, AX
	LEAQ (DI)(AX*4), DI
mdone:
	MOVQ dst+0(FP), SI
	SUBQ SI, DI
	SHRQ $2, DI
	MOVQ DI, m+32(FP)
	ORLANES32(Z29, Y29)
	MOVL AX, or+40(FP)
	VZEROUPPER
	RET
