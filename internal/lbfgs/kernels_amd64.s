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

// func newPairSSE2(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64)
//
// s = x − xp, y = g − gp, dir = g; returns s·y, y·y and s·g in gonum's
// DotUnitary lanes (as axpyDotSSE2). All slices have len(x) elements.
TEXT ·newPairSSE2(SB), NOSPLIT, $0-192
	MOVQ  s_base+0(FP), DI
	MOVQ  y_base+24(FP), R8
	MOVQ  dir_base+48(FP), R9
	MOVQ  x_base+72(FP), SI
	MOVQ  x_len+80(FP), CX
	MOVQ  xp_base+96(FP), R10
	MOVQ  g_base+120(FP), R11
	MOVQ  gp_base+144(FP), R12
	XORPS X8, X8
	XORPS X9, X9
	XORPS X10, X10
	XORPS X11, X11
	XORPS X12, X12
	XORPS X13, X13
	XORQ  AX, AX
	SUBQ  $4, CX
	JL    ptail

ploop:
	MOVUPD (SI)(AX*8), X0
	MOVUPD 16(SI)(AX*8), X1
	MOVUPD (R10)(AX*8), X2
	MOVUPD 16(R10)(AX*8), X3
	SUBPD  X2, X0
	SUBPD  X3, X1
	MOVUPD X0, (DI)(AX*8)
	MOVUPD X1, 16(DI)(AX*8)
	MOVUPD (R11)(AX*8), X2
	MOVUPD 16(R11)(AX*8), X3
	MOVUPD X2, (R9)(AX*8)
	MOVUPD X3, 16(R9)(AX*8)
	MOVAPD X2, X4
	MOVAPD X3, X5
	MOVUPD (R12)(AX*8), X6
	MOVUPD 16(R12)(AX*8), X7
	SUBPD  X6, X4
	SUBPD  X7, X5
	MOVUPD X4, (R8)(AX*8)
	MOVUPD X5, 16(R8)(AX*8)
	MOVAPD X0, X6
	MOVAPD X1, X7
	MULPD  X4, X6
	MULPD  X5, X7
	ADDPD  X6, X8
	ADDPD  X7, X9
	MOVAPD X4, X6
	MOVAPD X5, X7
	MULPD  X4, X6
	MULPD  X5, X7
	ADDPD  X6, X10
	ADDPD  X7, X11
	MULPD  X2, X0
	MULPD  X3, X1
	ADDPD  X0, X12
	ADDPD  X1, X13
	ADDQ   $4, AX
	SUBQ   $4, CX
	JGE    ploop

ptail:
	ADDQ $4, CX
	JLE  pend

pone:
	MOVSD (SI)(AX*8), X0
	SUBSD (R10)(AX*8), X0
	MOVSD X0, (DI)(AX*8)
	MOVSD (R11)(AX*8), X2
	MOVSD X2, (R9)(AX*8)
	MOVSD X2, X4
	SUBSD (R12)(AX*8), X4
	MOVSD X4, (R8)(AX*8)
	MOVSD X0, X6
	MULSD X4, X6
	ADDSD X6, X8
	MOVSD X4, X6
	MULSD X4, X6
	ADDSD X6, X10
	MULSD X2, X0
	ADDSD X0, X12
	INCQ  AX
	DECQ  CX
	JNZ   pone

pend:
	ADDPD    X9, X8
	MOVAPD   X8, X0
	UNPCKHPD X8, X8
	ADDSD    X0, X8
	MOVSD    X8, sy+168(FP)
	ADDPD    X11, X10
	MOVAPD   X10, X0
	UNPCKHPD X10, X10
	ADDSD    X0, X10
	MOVSD    X10, yy+176(FP)
	ADDPD    X13, X12
	MOVAPD   X12, X0
	UNPCKHPD X12, X12
	ADDSD    X0, X12
	MOVSD    X12, sg+184(FP)
	RET

// func lastPassSSE2(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool)
//
// d = −(alpha·v + d), xt = d + x; returns g·d in gonum's lanes and whether
// any xt[j] != x[j]. All slices have len(d) elements.
TEXT ·lastPassSSE2(SB), NOSPLIT, $0-137
	MOVQ    d_base+0(FP), DI
	MOVQ    d_len+8(FP), CX
	MOVSD   alpha+24(FP), X4
	SHUFPD  $0, X4, X4
	MOVQ    v_base+32(FP), SI
	MOVQ    g_base+56(FP), DX
	MOVQ    xt_base+80(FP), R8
	MOVQ    x_base+104(FP), R9
	PCMPEQL X15, X15
	PSLLQ   $63, X15          // the sign bit in each lane
	XORPS   X8, X8
	XORPS   X9, X9
	XORPS   X14, X14          // lanes where xt != x
	XORQ    AX, AX
	SUBQ    $4, CX
	JL      ltail

lloop:
	MOVUPD (SI)(AX*8), X0
	MOVUPD 16(SI)(AX*8), X1
	MULPD  X4, X0
	MULPD  X4, X1
	MOVUPD (DI)(AX*8), X2
	MOVUPD 16(DI)(AX*8), X3
	ADDPD  X2, X0
	ADDPD  X3, X1
	XORPD  X15, X0
	XORPD  X15, X1
	MOVUPD X0, (DI)(AX*8)
	MOVUPD X1, 16(DI)(AX*8)
	MOVUPD (DX)(AX*8), X5
	MOVUPD 16(DX)(AX*8), X6
	MULPD  X0, X5
	MULPD  X1, X6
	ADDPD  X5, X8
	ADDPD  X6, X9
	MOVUPD (R9)(AX*8), X5
	MOVUPD 16(R9)(AX*8), X6
	ADDPD  X5, X0
	ADDPD  X6, X1
	MOVUPD X0, (R8)(AX*8)
	MOVUPD X1, 16(R8)(AX*8)
	CMPPD  X0, X5, $4
	CMPPD  X1, X6, $4
	ORPD   X5, X14
	ORPD   X6, X14
	ADDQ   $4, AX
	SUBQ   $4, CX
	JGE    lloop

ltail:
	ADDQ $4, CX
	JLE  lend

lone:
	MOVSD (SI)(AX*8), X0
	MULSD X4, X0
	ADDSD (DI)(AX*8), X0
	XORPD X15, X0
	MOVSD X0, (DI)(AX*8)
	MOVSD (DX)(AX*8), X5
	MULSD X0, X5
	ADDSD X5, X8
	MOVSD (R9)(AX*8), X5
	ADDSD X5, X0
	MOVSD X0, (R8)(AX*8)
	CMPSD X0, X5, $4
	ORPD  X5, X14
	INCQ  AX
	DECQ  CX
	JNZ   lone

lend:
	ADDPD    X9, X8
	MOVAPD   X8, X0
	UNPCKHPD X8, X8
	ADDSD    X0, X8
	MOVSD    X8, proj+128(FP)
	MOVMSKPD X14, AX
	ANDQ     $3, AX
	SETNE    moved+136(FP)
	RET
