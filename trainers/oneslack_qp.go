package trainers

import (
	"context"
	"math"
)

// jointQP is the one-slack working set: joint constraints w·a_k ≥ b_k − ξ
// with one shared slack, so the dual is
//
//	max_α Σ_k α_k b_k − ½ αᵀGα   s.t. α ≥ 0, Σ_k α_k ≤ C,
//
// with the Gram matrix G_kl = a_k·a_l cached (the set is small and dense).
// It is solved by SMO pair steps on the simplex {α, α_slack ≥ 0, Σ α +
// α_slack = C}, the same exact block step as one n-slack group, with the
// gradient b − Gα kept up to date through G; w = Σ α_k a_k is formed only
// after a solve.
type jointQP struct {
	c       float64
	w       []float64
	a       []packedVec
	b       []float64
	alpha   []float64
	gram    [][]float64
	grad    []float64 // b_k − w(α)·a_k
	idle    []int     // consecutive iterations at α = 0
	wAlpha  []float64 // the α_k that w currently includes
	updates int
	// count and lossSum are, per joint constraint, how many groups'
	// constraints it sums and their losses' sum (Stats.SupportLoss).
	count   []int
	lossSum []float64
	// quad, if set, makes this the hard-margin problem over augmented
	// constraints that SVM_2 is: c is +Inf (no budget), and objectives and
	// solve are SVM_2's (see quadObjectives); groups is G.
	quad   *quadSlack
	groups int
}

func newJointQP(dim int, c float64, quad *quadSlack, groups int) *jointQP {
	q := &jointQP{c: c, w: make([]float64, dim), quad: quad, groups: groups}
	if quad != nil {
		q.c = math.Inf(1)
	}
	return q
}

// add appends a joint constraint with α = 0 (w does not move); dense is a
// as a dense vector, which turns each Gram entry into one sparse-dense dot.
// It sums count groups' constraints, whose losses sum to lossSum.
func (q *jointQP) add(a packedVec, b float64, dense []float64, count int, lossSum float64) {
	q.count = append(q.count, count)
	q.lossSum = append(q.lossSum, lossSum)
	row := make([]float64, len(q.a)+1)
	dotEach(dense, row[:len(q.a)], func(k int) *packedVec { return &q.a[k] })
	for k := range q.a {
		q.gram[k] = append(q.gram[k], row[k])
	}
	row[len(q.a)] = a.SquaredNorm()
	q.gram = append(q.gram, row)
	q.a = append(q.a, a)
	q.b = append(q.b, b)
	q.alpha = append(q.alpha, 0)
	q.grad = append(q.grad, b-a.Dot(q.w))
	q.idle = append(q.idle, 0)
	q.wAlpha = append(q.wAlpha, 0)
}

// slack returns the working-set ξ = max(0, max_k b_k − w·a_k).
func (q *jointQP) slack() float64 {
	xi := 0.0
	for _, g := range q.grad {
		xi = math.Max(xi, g)
	}
	return xi
}

// objectives returns the working-set primal ½‖w‖² + Cξ and the dual
// Σ α_k b_k − ½‖w‖², with ‖w‖² = Σ_k α_k (b_k − grad_k).
func (q *jointQP) objectives() (primal, dual float64) {
	var ww, ab float64
	for k, al := range q.alpha {
		ww += al * (q.b[k] - q.grad[k])
		ab += al * q.b[k]
	}
	if q.quad != nil {
		return q.quadPrimal(ww), ab - 0.5*ww
	}
	return 0.5*ww + q.c*q.slack(), ab - 0.5*ww
}

// quadPrimal is SVM_2's working-set primal at a feasible point, given ww =
// ‖w̃‖²: the augmented coordinates give ξ_g = A_g/C with A_g the α of the
// joint constraints that contain g, and raising every ξ_g by ρ = max(0,
// max_k b_k − w̃·ã_k) satisfies every joint constraint (each holds at least
// one group), so ½‖w‖² + (C/2) Σ_g (A_g/C + ρ)² = ½‖w̃‖² + ρ Σ_g A_g +
// C·G·ρ²/2 with Σ_g A_g = Σ_k α_k·count_k.
func (q *jointQP) quadPrimal(ww float64) float64 {
	rho := q.slack()
	var sumA float64
	for k, al := range q.alpha {
		sumA += al * float64(q.count[k])
	}
	return 0.5*ww + rho*sumA + 0.5*q.quad.c*float64(q.groups)*rho*rho
}

// solve runs pair steps until the gap is at most relTol·max(1, primal),
// then moves w to the new α. The gap is at most C times the pairwise KKT
// violation (every α_k > 0 and the slack sit within it of ξ), which is what
// the pair steps drive down.
func (q *jointQP) solve(ctx context.Context, relTol float64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, d := q.objectives()
	target := relTol * math.Max(1, p)
	if q.quad != nil {
		q.solveQuad(target)
	} else if p-d > target {
		q.pairSteps(target / q.c)
	}
	q.moveW()
	return nil
}

// solveQuad is solve's loop for SVM_2. With every gradient within τ ≤ 1 of
// the KKT conditions the gap (quadPrimal − dual) is at most τ·(Σ_k α_k·(1 +
// count_k) + C·G/2) (docs/svm-variants.md); α grows as it solves, so the
// tolerance is recomputed until the gap is within target.
func (q *jointQP) solveQuad(target float64) {
	for range 50 {
		p, d := q.objectives()
		if p-d <= target {
			return
		}
		scale := 0.5 * q.quad.c * float64(q.groups)
		for k, al := range q.alpha {
			scale += al * float64(1+q.count[k])
		}
		if q.pairSteps(math.Min(1, target/scale)) == 0 {
			return // no step left: rounding
		}
	}
}

// support returns the number of groups' constraints summed into joint
// constraints with α > 0 and the mean of their losses.
func (q *jointQP) support() (n int, meanLoss float64) {
	var sum float64
	for k, al := range q.alpha {
		if al > 0 {
			n += q.count[k]
			sum += q.lossSum[k]
		}
	}
	if n == 0 {
		return 0, 0
	}
	return n, sum / float64(n)
}

// pairSteps moves mass between the most and least violated coordinates (the
// virtual slack included) until their gradients differ by at most kkt, and
// returns the number of steps taken.
func (q *jointQP) pairSteps(kkt float64) int {
	const slackIdx = -1
	sum := 0.0
	for _, al := range q.alpha {
		sum += al
	}
	maxSteps := 1000 * (len(q.a) + 1) // a guard against rounding loops only
	for step := 0; step < maxSteps; step++ {
		up, gUp := slackIdx, 0.0
		down, gDown := slackIdx, math.Inf(1)
		if q.c-sum > 0 {
			gDown = 0
		}
		for k, g := range q.grad {
			if g > gUp {
				up, gUp = k, g
			}
			if q.alpha[k] > 0 && g < gDown {
				down, gDown = k, g
			}
		}
		if up == down || gUp-gDown <= kkt {
			return step
		}
		var curv, room float64
		switch {
		case down == slackIdx:
			curv, room = q.gram[up][up], q.c-sum
		case up == slackIdx:
			curv, room = q.gram[down][down], q.alpha[down]
		default:
			curv = q.gram[up][up] + q.gram[down][down] - 2*q.gram[up][down]
			room = q.alpha[down]
		}
		t := room
		if curv > 0 {
			t = math.Min(room, (gUp-gDown)/curv)
		}
		if t <= 0 {
			return step
		}
		if up != slackIdx {
			q.alpha[up] += t
			sum += t
			// gram is symmetric, exactly (add and dropInactive keep it so):
			// its row is read, contiguous, for the column.
			for k, x := range q.gram[up][:len(q.grad)] {
				q.grad[k] -= t * x
			}
		}
		if down != slackIdx {
			q.alpha[down] -= t
			sum -= t
			if q.alpha[down] < 0 {
				sum -= q.alpha[down]
				q.alpha[down] = 0
			}
			for k, x := range q.gram[down][:len(q.grad)] {
				q.grad[k] += t * x
			}
		}
		q.updates++
	}
	return maxSteps
}

// moveW brings w = Σ α_k a_k up to date, moving it along the constraints
// whose α changed since the last call.
func (q *jointQP) moveW() {
	for k, al := range q.alpha {
		if d := al - q.wAlpha[k]; d != 0 {
			q.a[k].AddTo(q.w, d)
			q.wAlpha[k] = al
		}
	}
}

// refresh recomputes every gradient b_k − w·a_k from w, so that rounding in
// the Gram updates cannot accumulate; the run calls it on every full oracle
// pass.
func (q *jointQP) refresh() {
	dotEach(q.w, q.grad, func(k int) *packedVec { return &q.a[k] })
	for k, d := range q.grad {
		q.grad[k] = q.b[k] - d
	}
}

// dropInactive counts, per constraint, the consecutive solves it ended at
// α = 0 and removes those past inactiveAfter (w does not move).
func (q *jointQP) dropInactive() {
	var kept []int
	for k := range q.a {
		if q.alpha[k] > 0 {
			q.idle[k] = 0
		} else {
			q.idle[k]++
		}
		if q.idle[k] <= inactiveAfter || q.wAlpha[k] != 0 {
			kept = append(kept, k)
		}
	}
	if len(kept) == len(q.a) {
		return
	}
	// Compact in place: kept is increasing, so every move is leftwards.
	for n, k := range kept {
		row := q.gram[k]
		for m, l := range kept {
			row[m] = row[l]
		}
		q.gram[n] = row[:len(kept)]
		q.a[n], q.b[n], q.alpha[n], q.grad[n], q.idle[n], q.wAlpha[n] = q.a[k], q.b[k], q.alpha[k], q.grad[k], q.idle[k], q.wAlpha[k]
		q.count[n], q.lossSum[n] = q.count[k], q.lossSum[k]
	}
	n := len(kept)
	clear(q.a[n:]) // release the dropped vectors: appends would reach them only later
	clear(q.gram[n:])
	q.a, q.b, q.alpha, q.grad, q.idle, q.gram, q.wAlpha = q.a[:n], q.b[:n], q.alpha[:n], q.grad[:n], q.idle[:n], q.gram[:n], q.wAlpha[:n]
	q.count, q.lossSum = q.count[:n], q.lossSum[:n]
}
