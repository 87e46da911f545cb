//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// Registers of both kernels: DX attrs, R8 len(attrs), R12 vals, CX the
// attribute index j, R9 start, R11 A = len(start)−1, R10 label, AX the
// pair q (from start[a_j]), BX its end start[a_j+1], R13 its label y,
// X1 vals[j].

// PAIRS sets AX, BX to the pairs of a_j = attrs[CX], jumping to skip for
// an id outside [0, A) (unsigned compare) or an attribute without pairs.
#define PAIRS(skip) \
	MOVLQSX (DX)(CX*4), AX   \
	CMPQ    AX, R11          \
	JAE     skip             \
	MOVLQSX 4(R9)(AX*4), BX  \
	MOVLQSX (R9)(AX*4), AX   \
	CMPQ    AX, BX           \
	JGE     skip

// func pairScoresAsm(row, w []float64, attrs []int32, vals []float64, start []int32, label []uint8)
//
// row[label[q]] += vals[j]·w[q] (w[q] when vals is empty) for the pairs q
// of each a_j in order, each product rounded before its add.
TEXT ·pairScoresAsm(SB), NOSPLIT, $0-144
	MOVQ row_base+0(FP), DI
	MOVQ w_base+24(FP), SI
	MOVQ attrs_base+48(FP), DX
	MOVQ attrs_len+56(FP), R8
	MOVQ vals_base+72(FP), R12
	MOVQ start_base+96(FP), R9
	MOVQ start_len+104(FP), R11
	DECQ R11
	MOVQ label_base+120(FP), R10
	XORQ CX, CX
	TESTQ R8, R8
	JZ   sdone
	CMPQ vals_len+80(FP), $0
	JNE  sval

sone:
	PAIRS(sonenext)

sonepair:
	MOVBQZX (R10)(AX*1), R13
	MOVSD   (DI)(R13*8), X0
	ADDSD   (SI)(AX*8), X0
	MOVSD   X0, (DI)(R13*8)
	INCQ    AX
	CMPQ    AX, BX
	JL      sonepair

sonenext:
	INCQ CX
	CMPQ CX, R8
	JL   sone
	RET

sval:
	PAIRS(svalnext)
	MOVSD (R12)(CX*8), X1

svalpair:
	MOVBQZX (R10)(AX*1), R13
	MOVSD   (SI)(AX*8), X0
	MULSD   X1, X0
	ADDSD   (DI)(R13*8), X0
	MOVSD   X0, (DI)(R13*8)
	INCQ    AX
	CMPQ    AX, BX
	JL      svalpair

svalnext:
	INCQ CX
	CMPQ CX, R8
	JL   sval

sdone:
	RET

// func pairGradientAsm(grad []float64, attrs []int32, vals, d []float64, start []int32, label []uint8)
//
// grad[q] += vals[j]·d[label[q]] (d[label[q]] when vals is empty) for the
// pairs q of each a_j in order, each product rounded before its add.
TEXT ·pairGradientAsm(SB), NOSPLIT, $0-144
	MOVQ grad_base+0(FP), DI
	MOVQ attrs_base+24(FP), DX
	MOVQ attrs_len+32(FP), R8
	MOVQ vals_base+48(FP), R12
	MOVQ d_base+72(FP), SI
	MOVQ start_base+96(FP), R9
	MOVQ start_len+104(FP), R11
	DECQ R11
	MOVQ label_base+120(FP), R10
	XORQ CX, CX
	TESTQ R8, R8
	JZ   gdone
	CMPQ vals_len+56(FP), $0
	JNE  gval

gone:
	PAIRS(gonenext)

gonepair:
	MOVBQZX (R10)(AX*1), R13
	MOVSD   (SI)(R13*8), X0
	ADDSD   (DI)(AX*8), X0
	MOVSD   X0, (DI)(AX*8)
	INCQ    AX
	CMPQ    AX, BX
	JL      gonepair

gonenext:
	INCQ CX
	CMPQ CX, R8
	JL   gone
	RET

gval:
	PAIRS(gvalnext)
	MOVSD (R12)(CX*8), X1

gvalpair:
	MOVBQZX (R10)(AX*1), R13
	MOVSD   (SI)(R13*8), X0
	MULSD   X1, X0
	ADDSD   (DI)(AX*8), X0
	MOVSD   X0, (DI)(AX*8)
	INCQ    AX
	CMPQ    AX, BX
	JL      gvalpair

gvalnext:
	INCQ CX
	CMPQ CX, R8
	JL   gval

gdone:
	RET
