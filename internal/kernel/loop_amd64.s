//go:build !purego

#include "go_asm.h"
#include "textflag.h"

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
	MOVQ search32_occ(R14), R8
	MOVQ search32_diag(R14), R9
	MOVQ search32_anti(R14), R10
	MOVQ search32_rem(R14), R11
	MOVQ search32_avail(R14), R12
	MOVQ search32_row(R14), R13

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
	INCQ search32_nodes(R14)
	MOVQ R12, search32_spAvail(R14)
	MOVQ R13, search32_spRow(R14)
	MOVQ BX, search32_spBit(R14)
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
	MOVQ $const_noKey, AX
	XORQ BX, BX
	MOVQ R11, SI
	LEAQ search32_rank(R14), DI
scan:
	BSFQ SI, CX
	FREE(DX, R12)
	ORQ DX, BX
	POPCNTQ DX, DX
	SHLQ $const_keyShift, DX
	ORQ (DI)(CX*8), DX
	CMPQ DX, AX
	CMOVQCS DX, AX
	LEAQ -1(SI), R12
	ANDQ R12, SI
	JNZ scan

	CMPQ AX, $(1<<const_keyShift)
	JCS back
	MOVQ R8, DX
	NOTQ DX
	CMPQ BX, DX
	JNE back

	// Push the node and go down to the child.
	MOVQ search32_depth(R14), SI
	IMUL3Q $frame__size, SI, DI
	LEAQ search32_stack(R14)(DI*1), DI
	INCQ SI
	MOVQ SI, search32_depth(R14)
	MOVQ search32_spBit(R14), BX
	MOVQ search32_spRow(R14), CX
	MOVQ R8, DX
	XORQ BX, DX
	MOVQ DX, frame_occ(DI)
	MOVQ BX, DX
	RORQ CX, DX
	XORQ R9, DX
	MOVQ DX, frame_diag(DI)
	MOVQ BX, DX
	ROLQ CX, DX
	XORQ R10, DX
	MOVQ DX, frame_anti(DI)
	MOVQ R11, frame_rem(DI)
	MOVQ search32_spAvail(R14), DX
	MOVQ DX, frame_avail(DI)
	MOVQ CX, frame_row(DI)
	MOVQ AX, R13
	ANDQ $(1<<const_rankShift-1), R13
	BTRQ R13, R11
	MOVQ R13, CX
	FREE(R12, DX)
	JMP loop

back:
	// The child is done: take its queen off and go on with the node.
	MOVQ search32_spBit(R14), BX
	MOVQ search32_spRow(R14), R13
	MOVQ search32_spAvail(R14), R12
	XORQ BX, R8
	MOVQ R13, CX
	DIAGS(XORQ)
	JMP loop

pop:
	MOVQ search32_depth(R14), SI
	TESTQ SI, SI
	JZ finished
	DECQ SI
	MOVQ SI, search32_depth(R14)
	IMUL3Q $frame__size, SI, DI
	LEAQ search32_stack(R14)(DI*1), DI
	MOVQ frame_occ(DI), R8
	MOVQ frame_diag(DI), R9
	MOVQ frame_anti(DI), R10
	MOVQ frame_rem(DI), R11
	MOVQ frame_avail(DI), R12
	MOVQ frame_row(DI), R13
	JMP loop

pause:
	MOVB $0, finished+16(FP)
	JMP save

finished:
	MOVB $1, finished+16(FP)

save:
	MOVQ R8, search32_occ(R14)
	MOVQ R9, search32_diag(R14)
	MOVQ R10, search32_anti(R14)
	MOVQ R11, search32_rem(R14)
	MOVQ R12, search32_avail(R14)
	MOVQ R13, search32_row(R14)
	RET

last3:
	// last3(A, B, C, f, r1, r2, r3) of kernel.go for the rows r1 < r2 < r3,
	// the lowest bits of rem, x and y (R11, SI, DI): A in R12, B in SI,
	// C in R9, the free columns f in R8, the distances in D12, D13, D23.
	// The child's board waits in the spill slots.
	MOVQ R8, search32_spOcc(R14)
	MOVQ R9, search32_spDiag(R14)
	MOVQ R10, search32_spAnti(R14)
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
	MOVQ BX, search32_d12(R14)
	ADDQ DX, BX
	MOVQ BX, search32_d13(R14)
	MOVQ DX, search32_d23(R14)
l3:
	TESTQ R12, R12
	JZ l3done
	MOVQ R12, R10
	NEGQ R10
	ANDQ R12, R10         // u, a column of A
	XORQ R10, R12
	UNATTACKED(search32_d12)
	MOVQ SI, R13
	ANDQ AX, R13          // bb
	UNATTACKED(search32_d13)
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
	MOVQ search32_d23(R14), CX
	SHLQ CX, BX
	XORQ AX, BX
	NEGQ BX
	SBBQ BX, BX           // −(v and w on no common diagonal)
	ANDQ BX, DX
	SUBQ DX, search32_sols(R14)
	JMP l3
l3done:
	MOVQ search32_spOcc(R14), R8
	MOVQ search32_spDiag(R14), R9
	MOVQ search32_spAnti(R14), R10
	JMP back
