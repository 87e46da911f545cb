package trainers

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/maxmargin/repro/structpred"
)

// MIRAName is k-best MIRA's name in configs and results.
const MIRAName = "mira"

// DefaultK is the number of best labelings MIRA constrains when K is unset
// (Crammer et al. use 5 for chunking and NER, 20 for OCR).
const DefaultK = 5

// ErrInfeasible reports that hard-margin MIRA (C = 0) met constraints that no
// weight vector satisfies together; a positive C makes every step feasible.
var ErrInfeasible = errors.New("MIRA constraints cannot all be satisfied; set C > 0")

// MIRA is k-best MIRA (Crammer, McDonald & Pereira 2005, Figure 1): for each
// instance it takes the K best labelings z_j under the current w (KBest with
// scale 0) and replaces w by the solution of
//
//	min_u ½‖u − w‖² + C·ξ  s.t.  u·δf_i(z_j) ≥ L_i(z_j) − ξ,  ξ ≥ 0,
//
// whose dual bounds Σ_j α_j ≤ C; C = 0 means ξ = 0, the paper's hard
// constraints. The QP is solved exactly: Hildreth's coordinate ascent on the
// dual, generalised to pair steps with a virtual slack coordinate (as in the
// cutting-plane solver) so that the budget C is respected, iterated until the
// KKT conditions hold to 1e-12. Labelings with δf_i(z) = 0 are skipped: they
// are the truth or indistinguishable from it, and no u can separate them.
// Averaging is on by default. Result.Constraints counts the instances whose
// QP moved w, Result.QPUpdates the dual steps; Primal, Dual and Gap are zero.
// With C = 0 an infeasible constraint set is reported as ErrInfeasible.
func MIRA[Y any](ctx context.Context, m Model[Y], s OnlineSettings) (*Result, error) {
	return trainOnline(ctx, miraAlgo[Y](), m, s, nil)
}

func miraAlgo[Y any]() onlineAlgo[Y] {
	return onlineAlgo[Y]{
		name: MIRAName, averages: true, converges: true,
		check: func(m Model[Y]) error {
			return needs[KBestDecoder[Y]](MIRAName, "k-best decoding", m)
		},
		defaults: func(s OnlineSettings) OnlineSettings {
			if s.K == 0 {
				s.K = DefaultK
			}
			return s
		},
		validate: func(s OnlineSettings) error {
			switch {
			case s.K < 1:
				return fmt.Errorf("MIRA needs K ≥ 1, got %d", s.K)
			case s.C < 0 || math.IsNaN(s.C) || math.IsInf(s.C, 0):
				return fmt.Errorf("MIRA's C must be finite and ≥ 0 (0 = unbounded), got %v", s.C)
			}
			return nil
		},
		step: miraStep[Y],
	}
}

func miraStep[Y any](m Model[Y], s OnlineSettings) onlineStep {
	d := m.(KBestDecoder[Y])
	budget := s.C
	if budget == 0 {
		budget = math.Inf(1)
	}
	var (
		qp  miraQP
		acc structpred.Accumulator
	)
	return func(i int, st *onlineState) (bool, error) {
		qp.reset()
		for _, z := range d.KBest(i, st.v, 0, s.K) { // a ≡ 1: v is w
			df := m.DeltaFeatures(i, z)
			if df.Len() == 0 {
				continue
			}
			qp.add(df, m.Loss(i, z)-df.Dot(st.v))
		}
		steps, err := qp.solve(budget)
		st.qpSteps += steps
		if err != nil {
			return false, err
		}
		acc.Reset()
		moved := false
		for j, a := range qp.alpha {
			if a == 0 {
				continue
			}
			moved = true
			for k, idx := range qp.a[j].Idx {
				acc.Add(idx, a*qp.a[j].Val[k])
			}
		}
		if !moved {
			return false, nil
		}
		st.add(acc.Vec(), 1)
		return true, nil
	}
}

// MIRAParams are MIRA's params. C bounds each instance's duals,
// Σ_j α_j ≤ C: it is per instance already, so there is no C_per_example;
// absent (0), the constraints are hard, as in Crammer et al.'s Figure 1.
type MIRAParams struct {
	OnlineParams
	C float64 `param:"C" range:"[0,1e12]" help:"bound on each instance's duals (0: hard constraints)"`
	K int     `param:"k,hyper" range:"[1,)" help:"number of best labelings constrained per instance"`
}

// Resolved fills the defaults: 10 epochs, averaging on, K = 5.
func (p MIRAParams) Resolved() MIRAParams {
	p.OnlineParams = p.OnlineParams.resolved(true)
	if p.K == 0 {
		p.K = DefaultK
	}
	return p
}

// Validate checks resolved params: nothing beyond their ranges.
func (p MIRAParams) Validate() error { return nil }

func miraTrainer[Y any]() Trainer[Y] {
	return onlineTrainer(miraAlgo[Y](), "k-best MIRA (Crammer, McDonald & Pereira 2005), each instance's QP solved exactly",
		"bounds each instance's duals Σ_j α_j ≤ C (per instance; absent: hard constraints)",
		func(p MIRAParams, _ int) OnlineSettings {
			s := p.settings()
			s.K, s.C = p.K, p.C
			return s
		})
}
