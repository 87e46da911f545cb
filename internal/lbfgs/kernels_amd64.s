//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func axpyDotSSE2(d []float64, alpha float64, v, w []float64) float64
//
// d += alpha·v and returns w·d, with len(v), len(w) ≥ len(d). The dot
// product keeps gonum's DotUnitary lanes: X7 = {s0, s1}, X8 = {s2, s3}
// over elements j ≡ 0, 1, 2, 3 (mod 4), the tail into s0, and returns
// (s0+s2) + (s1+s3); each update is (alpha·v) + d, as AxpyUnitary rounds it.
TEXT ·axpyDotSSE2(SB), NOSPLIT, $0-88
	MOVQ   d_base+0(FP), DI
	MOVQ   d_len+8(FP), CX
	MOVSD  alpha+24(FP), X4
	SHUFPD $0, X4, X4
	MOVQ   v_base+32(FP), SI
	MOVQ   w_base+56(FP), DX
	XORPS  X7, X7
	XORPS  X8, X8
	XORQ   AX, AX
	SUBQ   $4, CX
	JL     tail

loop:
	MOVUPD (SI)(AX*8), X0
	MOVUPD 16(SI)(AX*8), X2
	MULPD  X4, X0
	MULPD  X4, X2
	MOVUPD (DI)(AX*8), X1
	MOVUPD 16(DI)(AX*8), X3
	ADDPD  X1, X0
	ADDPD  X3, X2
	MOVUPD X0, (DI)(AX*8)
	MOVUPD X2, 16(DI)(AX*8)
	MOVUPD (DX)(AX*8), X5
	MOVUPD 16(DX)(AX*8), X6
	MULPD  X0, X5
	MULPD  X2, X6
	ADDPD  X5, X7
	ADDPD  X6, X8
	ADDQ   $4, AX
	SUBQ   $4, CX
	JGE    loop

tail:
	ADDQ $4, CX
	JLE  end

onemore:
	MOVSD (SI)(AX*8), X0
	MULSD X4, X0
	ADDSD (DI)(AX*8), X0
	MOVSD X0, (DI)(AX*8)
	MOVSD (DX)(AX*8), X5
	MULSD X0, X5
	ADDSD X5, X7
	INCQ  AX
	DECQ  CX
	JNZ   onemore

end:
	ADDPD    X8, X7
	MOVAPD   X7, X0
	UNPCKHPD X7, X7
	ADDSD    X0, X7
	MOVSD    X7, ret+80(FP)
	RET
