#include "textflag.h"

// Fields of search32 (loop_amd64.go).
#define OCC 0
#define DIAG 8
#define ANTI 16
#define REM 24
#define AVAIL 32
#define ROW 40
#define DEPTH 48
#define SOLS 56
#define NODES 64
#define SPAVAIL 72
#define SPROW 80
#define SPBIT 88
#define SPOCC 96
#define SPDIAG 104
#define SPANTI 112
#define D12 120
#define D13 128
#define D23 136
#define RANK 144
#define STACK 656

// FREE(d, t) sets d to the free squares of row CX of the board in R8-R10,
// ^(occ | rotl(diag, row) | rotr(anti, row)); t is clobbered.
#define FREE(d, t) \
	MOVQ R9, d; \
	ROLQ CX, d; \
	MOVQ R10, t; \
	RORQ CX, t; \
	ORQ t, d; \
	ORQ R8, d; \
	NOTQ d

// DIAGS(op) puts (ORQ) or takes off (XORQ) the diagonals of the queen BX
// of row CX in R9 and R10; DX is clobbered.
#define DIAGS(op) \
	MOVQ BX, DX; \
	RORQ CX, DX; \
	op DX, R9; \
	MOVQ BX, DX; \
	ROLQ CX, DX; \
	op DX, R10

// UNATTACKED(dist) sets AX to the columns that the queen R10 does not
// attack in a row dist rows away; BX is clobbered.
#define UNATTACKED(dist) \
	MOVQ dist(R14), CX; \
	MOVQ R10, AX; \
	SHLQ CX, AX; \
	MOVQ R10, BX; \
	SHRQ CX, BX; \
	ORQ BX, AX; \
	ORQ R10, AX; \
	NOTQ AX

// func hasPOPCNT() bool
TEXT ·hasPOPCNT(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $23, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET

// func run32(s *search32, budget uint64) (finished bool)
//
// count32's loop, statement for statement. R14 holds s and R15 the
// budget. At the top of loop the node is in R8 occ, R9 diag, R10 anti,
// R11 rem, R12 avail, R13 row. A child is examined in R8-R10 (its
// occ, diag, anti) while the node's avail, row and queen wait in the
// spill slots; the node comes back by taking the queen off again (its
// bits were clear before), or is pushed when the child branches.
TEXT ·run32(SB), NOSPLIT, $0-17
	MOVQ s+0(FP), R14
	MOVQ budget+8(FP), R15
	MOVQ OCC(R14), R8
	MOVQ DIAG(R14), R9
	MOVQ ANTI(R14), R10
	MOVQ REM(R14), R11
	MOVQ AVAIL(R14), R12
	MOVQ ROW(R14), R13

loop:
	TESTQ R12, R12
	JZ pop
	TESTQ R15, R15
	JZ pause
	DECQ R15
	MOVQ R12, BX
	NEGQ BX
	ANDQ R12, BX          // the queen's column bit
	XORQ BX, R12
	INCQ NODES(R14)
	MOVQ R12, SPAVAIL(R14)
	MOVQ R13, SPROW(R14)
	MOVQ BX, SPBIT(R14)
	MOVQ R13, CX
	DIAGS(ORQ)
	ORQ BX, R8
	// Three rows left (rem never has fewer here): closed form.
	MOVQ R11, SI
	LEAQ -1(SI), DI
	ANDQ DI, SI
	MOVQ SI, DI
	LEAQ -1(DI), AX
	ANDQ AX, DI
	LEAQ -1(DI), AX
	TESTQ AX, DI
	JZ last3

	// The row with the fewest free squares (key: count, rank) and the
	// columns some row can still take (BX).
	MOVQ $0x4000000000000000, AX
	XORQ BX, BX
	MOVQ R11, SI
	LEAQ RANK(R14), DI
scan:
	BSFQ SI, CX
	FREE(DX, R12)
	ORQ DX, BX
	POPCNTQ DX, DX
	SHLQ $12, DX
	ORQ (DI)(CX*8), DX
	CMPQ DX, AX
	CMOVQCS DX, AX
	LEAQ -1(SI), R12
	ANDQ R12, SI
	JNZ scan

	CMPQ AX, $4096
	JCS back
	MOVQ R8, DX
	NOTQ DX
	CMPQ BX, DX
	JNE back

	// Push the node and go down to the child.
	MOVQ DEPTH(R14), SI
	LEAQ (SI)(SI*2), DI
	SHLQ $4, DI
	LEAQ STACK(R14)(DI*1), DI
	INCQ SI
	MOVQ SI, DEPTH(R14)
	MOVQ SPBIT(R14), BX
	MOVQ SPROW(R14), CX
	MOVQ R8, DX
	XORQ BX, DX
	MOVQ DX, 0(DI)
	MOVQ BX, DX
	RORQ CX, DX
	XORQ R9, DX
	MOVQ DX, 8(DI)
	MOVQ BX, DX
	ROLQ CX, DX
	XORQ R10, DX
	MOVQ DX, 16(DI)
	MOVQ R11, 24(DI)
	MOVQ SPAVAIL(R14), DX
	MOVQ DX, 32(DI)
	MOVQ CX, 40(DI)
	MOVQ AX, R13
	ANDQ $63, R13
	BTRQ R13, R11
	MOVQ R13, CX
	FREE(R12, DX)
	JMP loop

back:
	// The child is done: take its queen off and go on with the node.
	MOVQ SPBIT(R14), BX
	MOVQ SPROW(R14), R13
	MOVQ SPAVAIL(R14), R12
	XORQ BX, R8
	MOVQ R13, CX
	DIAGS(XORQ)
	JMP loop

pop:
	MOVQ DEPTH(R14), SI
	TESTQ SI, SI
	JZ finished
	DECQ SI
	MOVQ SI, DEPTH(R14)
	LEAQ (SI)(SI*2), DI
	SHLQ $4, DI
	LEAQ STACK(R14)(DI*1), DI
	MOVQ 0(DI), R8
	MOVQ 8(DI), R9
	MOVQ 16(DI), R10
	MOVQ 24(DI), R11
	MOVQ 32(DI), R12
	MOVQ 40(DI), R13
	JMP loop

pause:
	MOVB $0, finished+16(FP)
	JMP save

finished:
	MOVB $1, finished+16(FP)

save:
	MOVQ R8, OCC(R14)
	MOVQ R9, DIAG(R14)
	MOVQ R10, ANTI(R14)
	MOVQ R11, REM(R14)
	MOVQ R12, AVAIL(R14)
	MOVQ R13, ROW(R14)
	RET

last3:
	// last3(A, B, C, f, r1, r2, r3) of kernel.go for the rows r1 < r2 < r3,
	// the lowest bits of rem, x and y (R11, SI, DI): A in R12, B in SI,
	// C in R9, the free columns f in R8, the distances in D12, D13, D23.
	// The child's board waits in the spill slots.
	MOVQ R8, SPOCC(R14)
	MOVQ R9, SPDIAG(R14)
	MOVQ R10, SPANTI(R14)
	BSFQ R11, AX
	BSFQ SI, BX
	BSFQ DI, DX
	MOVQ AX, CX
	FREE(R12, R13)
	MOVQ BX, CX
	FREE(SI, R13)
	MOVQ DX, CX
	ROLQ CX, R9
	RORQ CX, R10
	ORQ R10, R9
	ORQ R8, R9
	NOTQ R9
	NOTQ R8
	SUBQ BX, DX
	SUBQ AX, BX
	MOVQ BX, D12(R14)
	ADDQ DX, BX
	MOVQ BX, D13(R14)
	MOVQ DX, D23(R14)
l3:
	TESTQ R12, R12
	JZ l3done
	MOVQ R12, R10
	NEGQ R10
	ANDQ R12, R10         // u, a column of A
	XORQ R10, R12
	UNATTACKED(D12)
	MOVQ SI, R13
	ANDQ AX, R13          // bb
	UNATTACKED(D13)
	MOVQ R9, DI
	ANDQ AX, DI           // cc
	MOVQ R8, AX
	XORQ R10, AX
	MOVQ AX, BX
	NEGQ BX
	ANDQ AX, BX           // v
	XORQ BX, AX           // w
	MOVQ R13, DX
	ANDQ BX, DX
	NEGQ DX
	SBBQ DX, DX           // −(bb&v ≠ 0)
	MOVQ DI, R10
	ANDQ AX, R10
	NEGQ R10
	SBBQ R10, R10         // −(cc&w ≠ 0)
	ANDQ R10, DX
	ANDQ AX, R13
	NEGQ R13
	SBBQ R13, R13         // −(bb&w ≠ 0)
	ANDQ BX, DI
	NEGQ DI
	SBBQ DI, DI           // −(cc&v ≠ 0)
	ANDQ DI, R13
	ADDQ R13, DX          // minus the ways to place v and w
	MOVQ D23(R14), CX
	SHLQ CX, BX
	XORQ AX, BX
	NEGQ BX
	SBBQ BX, BX           // −(v and w on no common diagonal)
	ANDQ BX, DX
	SUBQ DX, SOLS(R14)
	JMP l3
l3done:
	MOVQ SPOCC(R14), R8
	MOVQ SPDIAG(R14), R9
	MOVQ SPANTI(R14), R10
	JMP back
