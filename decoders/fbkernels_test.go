package decoders

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// forwardBackwardScaledAxpy is the scaled pass as it was before mulVec and
// addOuter: K axpy calls per product. forwardBackwardScaled must give its
// results bit for bit.
func forwardBackwardScaledAxpy(dst *Marginals, c *Chain, trans []float64, transMax float64, ws *Workspace) {
	n, k := c.N, c.K
	shift := ws.shift[:n]
	eu := grow(&ws.eu, n*k)
	scale := grow(&ws.scale, n)
	alpha := grow(&ws.a, n*k)
	beta := grow(&ws.b, n*k)
	nu := grow(&ws.tmp, k)
	for t := range n {
		row, out, m := c.Unary[t*k:(t+1)*k], eu[t*k:(t+1)*k], shift[t]
		for y, v := range row {
			out[y] = math.Exp(v - m)
		}
	}
	et, etT := ws.expTransitions(trans, transMax, k)
	logZ := float64(n-1) * transMax
	for t := range n {
		cur, u := alpha[t*k:(t+1)*k], eu[t*k:(t+1)*k]
		if t == 0 {
			copy(cur, u)
		} else {
			clear(cur)
			for p, a := range alpha[(t-1)*k : t*k] {
				if a == 0 {
					continue
				}
				floats.AddScaled(cur, a, et[p*k:(p+1)*k])
			}
			for y := range cur {
				cur[y] *= u[y]
			}
		}
		var s float64
		for _, v := range cur {
			s += v
		}
		scale[t] = s
		inv := 1 / s
		for y := range cur {
			cur[y] *= inv
		}
		logZ += math.Log(s) + shift[t]
	}
	dst.LogZ = logZ
	last := beta[(n-1)*k:]
	for y := range last {
		last[y] = 1
	}
	edge := dst.Edge
	for t := n - 2; t >= 0; t-- {
		next, u, inv := beta[(t+1)*k:(t+2)*k], eu[(t+1)*k:(t+2)*k], 1/scale[t+1]
		for q := range nu {
			nu[q] = u[q] * next[q] * inv
		}
		cur := beta[t*k : (t+1)*k]
		clear(cur)
		for q, v := range nu {
			floats.AddScaled(cur, v, etT[q*k:(q+1)*k])
		}
		for a, p := range alpha[t*k : (t+1)*k] {
			if p == 0 {
				continue
			}
			floats.AddScaled(edge[a*k:(a+1)*k], p, nu)
		}
	}
	if n > 1 {
		for j, v := range et {
			edge[j] *= v
		}
	}
	for i, a := range alpha {
		dst.Node[i] = a * beta[i]
	}
}

// sameBits reports the first index where got and want differ as bits.
func sameBits(got, want []float64) (int, bool) {
	if len(got) != len(want) {
		return -1, false
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			return i, false
		}
	}
	return 0, true
}

// TestKernelsMatchAxpyCalls checks mulVec and addOuter against mulVecGo and
// addOuterGo bit for bit, at every K up to 35 (every chunk combination of
// the assembly), on nonnegative inputs with zeros, tiny and huge values,
// and with and without u.
func TestKernelsMatchAxpyCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 1))
	draw := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			switch rng.IntN(8) {
			case 0:
				xs[i] = 0
			case 1:
				xs[i] = math.Exp(-700 * rng.Float64()) // down to subnormal products
			default:
				xs[i] = math.Exp(20 * (2*rng.Float64() - 1))
			}
		}
		return xs
	}
	for k := 1; k <= 35; k++ {
		for trial := range 20 {
			x, m, u, v := draw(k), draw(k*k), draw(k), draw(k)
			if trial%2 == 1 {
				u = nil
			}
			got, want := draw(k), draw(k) // garbage the kernels must overwrite
			mulVec(got, x, m, u)
			mulVecGo(want, x, m, u)
			if i, ok := sameBits(got, want); !ok {
				t.Fatalf("K=%d trial %d: mulVec[%d] = %v, want %v", k, trial, i, got[i], want[i])
			}
			e := draw(k * k)
			e2 := append([]float64(nil), e...)
			addOuter(e, x, v)
			addOuterGo(e2, x, v)
			if i, ok := sameBits(e, e2); !ok {
				t.Fatalf("K=%d trial %d: addOuter[%d] = %v, want %v", k, trial, i, e[i], e2[i])
			}
		}
	}
}

// TestScaledPassMatchesAxpyPass runs the scaled pass and the one it
// replaced on random chains (K from 1 to 20, ranges up to the scaled
// pass's limit, so that some entries underflow to zero) and requires the
// same log Z and marginals bit for bit.
func TestScaledPassMatchesAxpyPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 2))
	for _, k := range []int{1, 2, 3, 7, 8, 9, 13, 16, 20} {
		for _, n := range []int{1, 2, 5, 31} {
			for _, spread := range []float64{0.1, 3, 60, 150} {
				name := fmt.Sprintf("K=%d/N=%d/spread=%v", k, n, spread)
				c := NewChain(n, k)
				for i := range c.Unary {
					c.Unary[i] = spread * rng.NormFloat64()
				}
				for i := range c.Trans {
					c.Trans[i] = spread * rng.NormFloat64()
				}
				ws, ref := new(Workspace), new(Workspace)
				trans := c.trans(ws)
				shift, ok := scaledRangeOK(c.Unary, trans, n, k, ws)
				if _, ok2 := scaledRangeOK(c.Unary, c.trans(ref), n, k, ref); !ok || !ok2 {
					continue // the log-space pass's business
				}
				got := &Marginals{Node: make([]float64, n*k), Edge: make([]float64, k*k)}
				want := &Marginals{Node: make([]float64, n*k), Edge: make([]float64, k*k)}
				forwardBackwardScaled(got, c, trans, shift, ws)
				forwardBackwardScaledAxpy(want, c, c.trans(ref), shift, ref)
				if math.Float64bits(got.LogZ) != math.Float64bits(want.LogZ) {
					t.Fatalf("%s: LogZ = %v, want %v", name, got.LogZ, want.LogZ)
				}
				if i, ok := sameBits(got.Node, want.Node); !ok {
					t.Fatalf("%s: Node[%d] = %v, want %v", name, i, got.Node[i], want.Node[i])
				}
				if i, ok := sameBits(got.Edge, want.Edge); !ok {
					t.Fatalf("%s: Edge[%d] = %v, want %v", name, i, got.Edge[i], want.Edge[i])
				}
			}
		}
	}
}
