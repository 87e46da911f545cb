//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// Both kernels work in column chunks of 8, 4, 2 and 1 (K = 13 is 8 + 4 +
// 1), running over the attributes once per chunk, so that a chunk's sums
// (sumRowsSSE2) or the added row (addRowsSSE2) stay in registers. The
// element (a, y) of every row is added in order of the attributes, each
// product rounded before its add (MULPD, then ADDPD), as sumRowsGo's and
// addRowsGo's gonum calls do.
//
// Registers: DX attrs, R8 len(attrs), R12 vals (R13 len(vals), 0 for none),
// R9 K·8, BX the chunk's first column, AX the columns left, R11 the
// attribute index j, R10 the address of row a_j.

// ROWADDR sets R10 = base + a_j·K·8 for a_j = attrs[R11].
#define ROWADDR(base) \
	MOVLQSX (DX)(R11*4), R10 \
	IMULQ   R9, R10          \
	ADDQ    base, R10

// BCAST sets X15 = {vals[j], vals[j]}.
#define BCAST \
	MOVSD  (R12)(R11*8), X15 \
	SHUFPD $0, X15, X15

// func sumRowsSSE2(row, w []float64, attrs []int32, vals []float64)
//
// row[y] = Σ_j vals[j]·w[a_j·K + y] for y < K = len(row) (each row added
// as it is when vals is empty), every sum starting at +0 and adding in
// order of j.
TEXT ·sumRowsSSE2(SB), NOSPLIT, $0-96
	MOVQ row_base+0(FP), DI
	MOVQ row_len+8(FP), CX
	MOVQ w_base+24(FP), SI
	MOVQ attrs_base+48(FP), DX
	MOVQ attrs_len+56(FP), R8
	MOVQ vals_base+72(FP), R12
	MOVQ vals_len+80(FP), R13
	MOVQ CX, R9
	SHLQ $3, R9
	XORQ BX, BX

s8:
	MOVQ  CX, AX
	SUBQ  BX, AX
	CMPQ  AX, $8
	JL    s4
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	XORQ  R11, R11
	TESTQ R8, R8
	JZ    s8store
	TESTQ R13, R13
	JNZ   s8val

s8one:
	ROWADDR(SI)
	MOVUPD (R10)(BX*8), X4
	MOVUPD 16(R10)(BX*8), X5
	MOVUPD 32(R10)(BX*8), X6
	MOVUPD 48(R10)(BX*8), X7
	ADDPD  X4, X0
	ADDPD  X5, X1
	ADDPD  X6, X2
	ADDPD  X7, X3
	INCQ   R11
	CMPQ   R11, R8
	JL     s8one
	JMP    s8store

s8val:
	ROWADDR(SI)
	BCAST
	MOVUPD (R10)(BX*8), X4
	MOVUPD 16(R10)(BX*8), X5
	MOVUPD 32(R10)(BX*8), X6
	MOVUPD 48(R10)(BX*8), X7
	MULPD  X15, X4
	MULPD  X15, X5
	MULPD  X15, X6
	MULPD  X15, X7
	ADDPD  X4, X0
	ADDPD  X5, X1
	ADDPD  X6, X2
	ADDPD  X7, X3
	INCQ   R11
	CMPQ   R11, R8
	JL     s8val

s8store:
	MOVUPD X0, (DI)(BX*8)
	MOVUPD X1, 16(DI)(BX*8)
	MOVUPD X2, 32(DI)(BX*8)
	MOVUPD X3, 48(DI)(BX*8)
	ADDQ   $8, BX
	JMP    s8

s4:
	CMPQ  AX, $4
	JL    s2
	XORPS X0, X0
	XORPS X1, X1
	XORQ  R11, R11
	TESTQ R8, R8
	JZ    s4store
	TESTQ R13, R13
	JNZ   s4val

s4one:
	ROWADDR(SI)
	MOVUPD (R10)(BX*8), X4
	MOVUPD 16(R10)(BX*8), X5
	ADDPD  X4, X0
	ADDPD  X5, X1
	INCQ   R11
	CMPQ   R11, R8
	JL     s4one
	JMP    s4store

s4val:
	ROWADDR(SI)
	BCAST
	MOVUPD (R10)(BX*8), X4
	MOVUPD 16(R10)(BX*8), X5
	MULPD  X15, X4
	MULPD  X15, X5
	ADDPD  X4, X0
	ADDPD  X5, X1
	INCQ   R11
	CMPQ   R11, R8
	JL     s4val

s4store:
	MOVUPD X0, (DI)(BX*8)
	MOVUPD X1, 16(DI)(BX*8)
	ADDQ   $4, BX
	SUBQ   $4, AX

s2:
	CMPQ  AX, $2
	JL    s1
	XORPS X0, X0
	XORQ  R11, R11
	TESTQ R8, R8
	JZ    s2store
	TESTQ R13, R13
	JNZ   s2val

s2one:
	ROWADDR(SI)
	MOVUPD (R10)(BX*8), X4
	ADDPD  X4, X0
	INCQ   R11
	CMPQ   R11, R8
	JL     s2one
	JMP    s2store

s2val:
	ROWADDR(SI)
	BCAST
	MOVUPD (R10)(BX*8), X4
	MULPD  X15, X4
	ADDPD  X4, X0
	INCQ   R11
	CMPQ   R11, R8
	JL     s2val

s2store:
	MOVUPD X0, (DI)(BX*8)
	ADDQ   $2, BX
	SUBQ   $2, AX

s1:
	CMPQ  AX, $1
	JL    sdone
	XORPS X0, X0
	XORQ  R11, R11
	TESTQ R8, R8
	JZ    s1store
	TESTQ R13, R13
	JNZ   s1val

s1one:
	ROWADDR(SI)
	MOVSD (R10)(BX*8), X4
	ADDSD X4, X0
	INCQ  R11
	CMPQ  R11, R8
	JL    s1one
	JMP   s1store

s1val:
	ROWADDR(SI)
	MOVSD (R12)(R11*8), X15
	MOVSD (R10)(BX*8), X4
	MULSD X15, X4
	ADDSD X4, X0
	INCQ  R11
	CMPQ  R11, R8
	JL    s1val

s1store:
	MOVSD X0, (DI)(BX*8)

sdone:
	RET

// func addRowsSSE2(grad []float64, attrs []int32, vals, d []float64)
//
// grad[a_j·K + y] += vals[j]·d[y] for y < K = len(d), in order of j (d
// added as it is when vals is empty).
TEXT ·addRowsSSE2(SB), NOSPLIT, $0-96
	MOVQ grad_base+0(FP), DI
	MOVQ attrs_base+24(FP), DX
	MOVQ attrs_len+32(FP), R8
	MOVQ vals_base+48(FP), R12
	MOVQ vals_len+56(FP), R13
	MOVQ d_base+72(FP), SI
	MOVQ d_len+80(FP), CX
	MOVQ CX, R9
	SHLQ $3, R9
	XORQ BX, BX
	TESTQ R8, R8
	JZ   adone

a8:
	MOVQ   CX, AX
	SUBQ   BX, AX
	CMPQ   AX, $8
	JL     a4
	MOVUPD (SI)(BX*8), X4
	MOVUPD 16(SI)(BX*8), X5
	MOVUPD 32(SI)(BX*8), X6
	MOVUPD 48(SI)(BX*8), X7
	XORQ   R11, R11
	TESTQ  R13, R13
	JNZ    a8val

a8one:
	ROWADDR(DI)
	MOVUPD (R10)(BX*8), X0
	MOVUPD 16(R10)(BX*8), X1
	MOVUPD 32(R10)(BX*8), X2
	MOVUPD 48(R10)(BX*8), X3
	ADDPD  X4, X0
	ADDPD  X5, X1
	ADDPD  X6, X2
	ADDPD  X7, X3
	MOVUPD X0, (R10)(BX*8)
	MOVUPD X1, 16(R10)(BX*8)
	MOVUPD X2, 32(R10)(BX*8)
	MOVUPD X3, 48(R10)(BX*8)
	INCQ   R11
	CMPQ   R11, R8
	JL     a8one
	ADDQ   $8, BX
	JMP    a8

a8val:
	ROWADDR(DI)
	BCAST
	MOVAPD X4, X0
	MOVAPD X5, X1
	MOVAPD X6, X2
	MOVAPD X7, X3
	MULPD  X15, X0
	MULPD  X15, X1
	MULPD  X15, X2
	MULPD  X15, X3
	MOVUPD (R10)(BX*8), X8
	MOVUPD 16(R10)(BX*8), X9
	MOVUPD 32(R10)(BX*8), X10
	MOVUPD 48(R10)(BX*8), X11
	ADDPD  X8, X0
	ADDPD  X9, X1
	ADDPD  X10, X2
	ADDPD  X11, X3
	MOVUPD X0, (R10)(BX*8)
	MOVUPD X1, 16(R10)(BX*8)
	MOVUPD X2, 32(R10)(BX*8)
	MOVUPD X3, 48(R10)(BX*8)
	INCQ   R11
	CMPQ   R11, R8
	JL     a8val
	ADDQ   $8, BX
	JMP    a8

a4:
	CMPQ   AX, $4
	JL     a2
	MOVUPD (SI)(BX*8), X4
	MOVUPD 16(SI)(BX*8), X5
	XORQ   R11, R11
	TESTQ  R13, R13
	JNZ    a4val

a4one:
	ROWADDR(DI)
	MOVUPD (R10)(BX*8), X0
	MOVUPD 16(R10)(BX*8), X1
	ADDPD  X4, X0
	ADDPD  X5, X1
	MOVUPD X0, (R10)(BX*8)
	MOVUPD X1, 16(R10)(BX*8)
	INCQ   R11
	CMPQ   R11, R8
	JL     a4one
	JMP    a4next

a4val:
	ROWADDR(DI)
	BCAST
	MOVAPD X4, X0
	MOVAPD X5, X1
	MULPD  X15, X0
	MULPD  X15, X1
	MOVUPD (R10)(BX*8), X8
	MOVUPD 16(R10)(BX*8), X9
	ADDPD  X8, X0
	ADDPD  X9, X1
	MOVUPD X0, (R10)(BX*8)
	MOVUPD X1, 16(R10)(BX*8)
	INCQ   R11
	CMPQ   R11, R8
	JL     a4val

a4next:
	ADDQ $4, BX
	SUBQ $4, AX

a2:
	CMPQ   AX, $2
	JL     a1
	MOVUPD (SI)(BX*8), X4
	XORQ   R11, R11
	TESTQ  R13, R13
	JNZ    a2val

a2one:
	ROWADDR(DI)
	MOVUPD (R10)(BX*8), X0
	ADDPD  X4, X0
	MOVUPD X0, (R10)(BX*8)
	INCQ   R11
	CMPQ   R11, R8
	JL     a2one
	JMP    a2next

a2val:
	ROWADDR(DI)
	BCAST
	MOVAPD X4, X0
	MULPD  X15, X0
	MOVUPD (R10)(BX*8), X8
	ADDPD  X8, X0
	MOVUPD X0, (R10)(BX*8)
	INCQ   R11
	CMPQ   R11, R8
	JL     a2val

a2next:
	ADDQ $2, BX
	SUBQ $2, AX

a1:
	CMPQ  AX, $1
	JL    adone
	MOVSD (SI)(BX*8), X4
	XORQ  R11, R11
	TESTQ R13, R13
	JNZ   a1val

a1one:
	ROWADDR(DI)
	MOVSD (R10)(BX*8), X0
	ADDSD X4, X0
	MOVSD X0, (R10)(BX*8)
	INCQ  R11
	CMPQ  R11, R8
	JL    a1one
	RET

a1val:
	ROWADDR(DI)
	MOVSD (R12)(R11*8), X0
	MULSD X4, X0
	ADDSD (R10)(BX*8), X0
	MOVSD X0, (R10)(BX*8)
	INCQ  R11
	CMPQ  R11, R8
	JL    a1val

adone:
	RET
