//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func mulVecSSE2(out, x, m, u []float64)
//
// out[y] = (Σ_p x[p]·m[p·k+y])·u[y] for y, p < k = len(out); an empty u
// multiplies by nothing. The output is made in column chunks of 8, 4, 2
// and 1, each held in registers while p runs over the rows: every sum
// starts at +0 and adds x[p]·m[p·k+y], rounded (MULPD, then ADDPD), in
// order of p, as mulVecGo's axpy calls do.
TEXT ·mulVecSSE2(SB), NOSPLIT, $0-96
	MOVQ out_base+0(FP), DI
	MOVQ out_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ m_base+48(FP), DX
	MOVQ u_base+72(FP), R8
	MOVQ u_len+80(FP), R12
	MOVQ CX, R9
	SHLQ $3, R9            // R9: a row of m in bytes
	XORQ BX, BX            // BX: the chunk's first column
	TESTQ CX, CX
	JZ   mdone

m8:
	MOVQ CX, AX
	SUBQ BX, AX            // AX: columns left
	CMPQ AX, $8
	JL   m4
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	LEAQ (DX)(BX*8), R10   // R10: &m[p·k + BX]
	XORQ R11, R11          // R11: p

m8row:
	MOVSD  (SI)(R11*8), X4
	SHUFPD $0, X4, X4
	MOVUPD (R10), X5
	MOVUPD 16(R10), X6
	MOVUPD 32(R10), X7
	MOVUPD 48(R10), X8
	MULPD  X4, X5
	MULPD  X4, X6
	MULPD  X4, X7
	MULPD  X4, X8
	ADDPD  X5, X0
	ADDPD  X6, X1
	ADDPD  X7, X2
	ADDPD  X8, X3
	ADDQ   R9, R10
	INCQ   R11
	CMPQ   R11, CX
	JL     m8row
	TESTQ  R12, R12
	JZ     m8store
	MOVUPD (R8)(BX*8), X5
	MOVUPD 16(R8)(BX*8), X6
	MOVUPD 32(R8)(BX*8), X7
	MOVUPD 48(R8)(BX*8), X8
	MULPD  X5, X0
	MULPD  X6, X1
	MULPD  X7, X2
	MULPD  X8, X3

m8store:
	MOVUPD X0, (DI)(BX*8)
	MOVUPD X1, 16(DI)(BX*8)
	MOVUPD X2, 32(DI)(BX*8)
	MOVUPD X3, 48(DI)(BX*8)
	ADDQ   $8, BX
	JMP    m8

m4:
	CMPQ  AX, $4
	JL    m2
	XORPS X0, X0
	XORPS X1, X1
	LEAQ  (DX)(BX*8), R10
	XORQ  R11, R11

m4row:
	MOVSD  (SI)(R11*8), X4
	SHUFPD $0, X4, X4
	MOVUPD (R10), X5
	MOVUPD 16(R10), X6
	MULPD  X4, X5
	MULPD  X4, X6
	ADDPD  X5, X0
	ADDPD  X6, X1
	ADDQ   R9, R10
	INCQ   R11
	CMPQ   R11, CX
	JL     m4row
	TESTQ  R12, R12
	JZ     m4store
	MOVUPD (R8)(BX*8), X5
	MOVUPD 16(R8)(BX*8), X6
	MULPD  X5, X0
	MULPD  X6, X1

m4store:
	MOVUPD X0, (DI)(BX*8)
	MOVUPD X1, 16(DI)(BX*8)
	ADDQ   $4, BX
	SUBQ   $4, AX

m2:
	CMPQ  AX, $2
	JL    m1
	XORPS X0, X0
	LEAQ  (DX)(BX*8), R10
	XORQ  R11, R11

m2row:
	MOVSD  (SI)(R11*8), X4
	SHUFPD $0, X4, X4
	MOVUPD (R10), X5
	MULPD  X4, X5
	ADDPD  X5, X0
	ADDQ   R9, R10
	INCQ   R11
	CMPQ   R11, CX
	JL     m2row
	TESTQ  R12, R12
	JZ     m2store
	MOVUPD (R8)(BX*8), X5
	MULPD  X5, X0

m2store:
	MOVUPD X0, (DI)(BX*8)
	ADDQ   $2, BX
	SUBQ   $2, AX

m1:
	CMPQ  AX, $1
	JL    mdone
	XORPS X0, X0
	LEAQ  (DX)(BX*8), R10
	XORQ  R11, R11

m1row:
	MOVSD (SI)(R11*8), X4
	MOVSD (R10), X5
	MULSD X4, X5
	ADDSD X5, X0
	ADDQ  R9, R10
	INCQ  R11
	CMPQ  R11, CX
	JL    m1row
	TESTQ R12, R12
	JZ    m1store
	MOVSD (R8)(BX*8), X5
	MULSD X5, X0

m1store:
	MOVSD X0, (DI)(BX*8)

mdone:
	RET

// func addOuterSSE2(edge, x, v []float64)
//
// edge[a·k+b] += x[a]·v[b] for a, b < k = len(x), each product rounded
// before its add, as addOuterGo's axpy calls do; the columns of v go in
// chunks of 8, 4, 2 and 1, held in registers while a runs over the rows.
TEXT ·addOuterSSE2(SB), NOSPLIT, $0-72
	MOVQ edge_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), CX
	MOVQ v_base+48(FP), DX
	MOVQ CX, R9
	SHLQ $3, R9            // R9: a row of edge in bytes
	XORQ BX, BX            // BX: the chunk's first column
	TESTQ CX, CX
	JZ   odone

o8:
	MOVQ   CX, AX
	SUBQ   BX, AX
	CMPQ   AX, $8
	JL     o4
	MOVUPD (DX)(BX*8), X4
	MOVUPD 16(DX)(BX*8), X5
	MOVUPD 32(DX)(BX*8), X6
	MOVUPD 48(DX)(BX*8), X7
	LEAQ   (DI)(BX*8), R10 // R10: &edge[a·k + BX]
	XORQ   R11, R11        // R11: a

o8row:
	MOVSD  (SI)(R11*8), X8
	SHUFPD $0, X8, X8
	MOVAPD X4, X0
	MOVAPD X5, X1
	MOVAPD X6, X2
	MOVAPD X7, X3
	MULPD  X8, X0
	MULPD  X8, X1
	MULPD  X8, X2
	MULPD  X8, X3
	MOVUPD (R10), X9
	MOVUPD 16(R10), X10
	MOVUPD 32(R10), X11
	MOVUPD 48(R10), X12
	ADDPD  X9, X0
	ADDPD  X10, X1
	ADDPD  X11, X2
	ADDPD  X12, X3
	MOVUPD X0, (R10)
	MOVUPD X1, 16(R10)
	MOVUPD X2, 32(R10)
	MOVUPD X3, 48(R10)
	ADDQ   R9, R10
	INCQ   R11
	CMPQ   R11, CX
	JL     o8row
	ADDQ   $8, BX
	JMP    o8

o4:
	CMPQ   AX, $4
	JL     o2
	MOVUPD (DX)(BX*8), X4
	MOVUPD 16(DX)(BX*8), X5
	LEAQ   (DI)(BX*8), R10
	XORQ   R11, R11

o4row:
	MOVSD  (SI)(R11*8), X8
	SHUFPD $0, X8, X8
	MOVAPD X4, X0
	MOVAPD X5, X1
	MULPD  X8, X0
	MULPD  X8, X1
	MOVUPD (R10), X9
	MOVUPD 16(R10), X10
	ADDPD  X9, X0
	ADDPD  X10, X1
	MOVUPD X0, (R10)
	MOVUPD X1, 16(R10)
	ADDQ   R9, R10
	INCQ   R11
	CMPQ   R11, CX
	JL     o4row
	ADDQ   $4, BX
	SUBQ   $4, AX

o2:
	CMPQ   AX, $2
	JL     o1
	MOVUPD (DX)(BX*8), X4
	LEAQ   (DI)(BX*8), R10
	XORQ   R11, R11

o2row:
	MOVSD  (SI)(R11*8), X8
	SHUFPD $0, X8, X8
	MOVAPD X4, X0
	MULPD  X8, X0
	MOVUPD (R10), X9
	ADDPD  X9, X0
	MOVUPD X0, (R10)
	ADDQ   R9, R10
	INCQ   R11
	CMPQ   R11, CX
	JL     o2row
	ADDQ   $2, BX
	SUBQ   $2, AX

o1:
	CMPQ  AX, $1
	JL    odone
	MOVSD (DX)(BX*8), X4
	LEAQ  (DI)(BX*8), R10
	XORQ  R11, R11

o1row:
	MOVSD (SI)(R11*8), X0
	MULSD X4, X0
	ADDSD (R10), X0
	MOVSD X0, (R10)
	ADDQ  R9, R10
	INCQ  R11
	CMPQ  R11, CX
	JL    o1row

odone:
	RET
