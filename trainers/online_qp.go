package trainers

import (
	"math"

	"github.com/maxmargin/repro/structpred"
)

// miraQP is MIRA's per-instance problem in its dual form. With constraints
// u·a_j ≥ m_j − ξ and the substitution u = w + Σ_j α_j a_j, the primal
// min ½‖u − w‖² + C·ξ has the dual
//
//	max_α Σ_j α_j b_j − ½ αᵀGα   s.t. α ≥ 0, Σ_j α_j ≤ C,
//
// with b_j = m_j − w·a_j (the violation at w) and G_jk = a_j·a_k. The problem
// has at most K variables, so G is formed densely.
type miraQP struct {
	a     []structpred.SparseVec
	b     []float64
	alpha []float64
	r     []float64 // b_j − (Gα)_j: the violation of constraint j at u(α)
	gram  []float64 // k×k, row-major
}

func (q *miraQP) reset() {
	q.a, q.b = q.a[:0], q.b[:0]
}

// add appends the constraint u·a ≥ margin with b = margin − w·a.
func (q *miraQP) add(a structpred.SparseVec, b float64) {
	q.a = append(q.a, a)
	q.b = append(q.b, b)
}

// miraTol is the KKT tolerance of the dual solve, relative to max(1, max b),
// and miraMaxSteps caps the dual steps per constraint.
const (
	miraTol      = 1e-12
	miraMaxSteps = 100000
)

// solve maximises the dual under Σα ≤ budget (+Inf for hard constraints) and
// returns the number of steps taken. Each step is the exact line maximisation
// along a pair of coordinates (one of which may be the virtual slack α_0 =
// budget − Σα, whose gradient is 0): with an unbounded budget the steps
// involving the slack are Hildreth's single-coordinate updates
// α_j ← max(0, α_j + r_j/G_jj). It stops when
//
//	max_j r_j (and 0) − min_{α_j>0} r_j (and 0 if α_0 > 0) ≤ tol,
//
// the KKT conditions of the dual, and reports ErrInfeasible if a hard-margin
// problem has not converged after miraMaxSteps·k steps (the dual is then
// unbounded or nearly so).
func (q *miraQP) solve(budget float64) (int, error) {
	k := len(q.a)
	q.alpha = growFloats(q.alpha, k)
	q.r = growFloats(q.r, k)
	q.gram = growFloats(q.gram, k*k)
	clear(q.alpha)
	copy(q.r, q.b)
	scale := 1.0
	for j := range k {
		scale = math.Max(scale, math.Abs(q.b[j]))
		for l := range j + 1 {
			g := q.a[j].DotSparse(q.a[l])
			q.gram[j*k+l], q.gram[l*k+j] = g, g
		}
	}
	tol := miraTol * scale
	sum := 0.0
	const slack = -1
	for step := 0; step < miraMaxSteps*max(k, 1); step++ {
		room0 := budget - sum // +Inf when unbounded
		up, gUp := slack, 0.0
		down, gDown := slack, math.Inf(1)
		if room0 > 0 {
			gDown = 0
		}
		for j := range k {
			if q.r[j] > gUp {
				up, gUp = j, q.r[j]
			}
			if q.alpha[j] > 0 && q.r[j] < gDown {
				down, gDown = j, q.r[j]
			}
		}
		if up == down || gUp-gDown <= tol {
			return step, nil
		}
		var curv, room float64
		switch {
		case down == slack:
			curv, room = q.gram[up*k+up], room0
		case up == slack:
			curv, room = q.gram[down*k+down], q.alpha[down]
		default:
			curv = q.gram[up*k+up] + q.gram[down*k+down] - 2*q.gram[up*k+down]
			room = q.alpha[down]
		}
		t := room
		if curv > 0 {
			t = math.Min(room, (gUp-gDown)/curv)
		}
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return step, ErrInfeasible // a direction of unbounded ascent
		}
		if t <= 0 {
			return step, nil
		}
		if up != slack {
			q.alpha[up] += t
			sum += t
			for j := range k {
				q.r[j] -= t * q.gram[j*k+up]
			}
		}
		if down != slack {
			q.alpha[down] -= t
			sum -= t
			if t == room || q.alpha[down] < 0 { // emptied: no rounding residue
				q.alpha[down] = 0
			}
			for j := range k {
				q.r[j] += t * q.gram[j*k+down]
			}
		}
	}
	if math.IsInf(budget, 1) {
		return miraMaxSteps * k, ErrInfeasible
	}
	return miraMaxSteps * k, nil
}

func growFloats(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}
