package trainers_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/maxmargin/repro/trainers"
)

// Tsochantaridis' H and Sarawagi & Gupta's eq. (1) reach the same objective
// on random chain problems: each run converges with its true gap within the
// solver's bound C·G·ε, each primal is the one enumeration over every
// labeling gives (eq. (1) is certified by the H oracle), each primal lies
// above the other criterion's dual, and the two primals agree within C·G·ε.
// Stopped after two passes the eq. (1) primal is still the enumerated one.
// Catches an eq. (1) oracle that misses violated labelings (the run would
// stop short of the optimum), and one whose proposals are taken for the
// true slacks (its primal would fall below the enumerated one).
func TestSlackCriteriaReachSameObjective(t *testing.T) {
	t.Parallel()
	const eps = 1e-3
	differ := false
	for si, shape := range tinyChains() {
		for seed := range uint64(3) {
			for _, c := range []float64{0.1, 10} {
				name := fmt.Sprintf("shape%d/seed%d/C%v", si, seed, c)
				m, data := randomChain(seed, shape)
				bound := c * float64(m.Len()) * eps
				runs := map[string]*trainers.Result{}
				for _, criterion := range trainers.SlackCriteria() {
					for _, iters := range []int{2, 0} { // 0: the default
						v := trainers.Values{"C": c, "epsilon": eps, "criterion": criterion}
						if iters > 0 {
							v["max_iterations"] = iters
						}
						res, err := trainers.Train[[]int](context.Background(), trainers.Slack, m, v)
						if err != nil {
							t.Fatalf("%s/%s: %v", name, criterion, err)
						}
						want := enumeratedPrimal(m, data, shape.k, trainers.Slack, res.W, c)
						if !res.PrimalExact || math.Abs(res.Primal-want) > 1e-9*math.Max(1, want) {
							t.Errorf("%s/%s/iters%d: primal %v (exact %v), enumerated %v", name, criterion, iters, res.Primal, res.PrimalExact, want)
						}
						if iters == 0 {
							runs[criterion] = res
						}
					}
					res := runs[criterion]
					tiny := 1e-9 * math.Max(1, res.Primal)
					if !res.Converged || res.Gap < -tiny || res.Gap > bound+tiny {
						t.Errorf("%s/%s: converged %v, true gap %v outside [0, %v]", name, criterion, res.Converged, res.Gap, bound)
					}
				}
				h, sg := runs[trainers.CriterionTsochantaridis], runs[trainers.CriterionSarawagiGupta]
				tiny := 1e-9 * math.Max(1, h.Primal)
				if h.Primal < sg.Dual-tiny || sg.Primal < h.Dual-tiny {
					t.Errorf("%s: a primal below the other criterion's dual: H %v/%v, eq. (1) %v/%v", name, h.Primal, h.Dual, sg.Primal, sg.Dual)
				}
				if d := math.Abs(h.Primal - sg.Primal); d > bound {
					t.Errorf("%s: primals differ by %v (H %v, eq. (1) %v), bound %v", name, d, h.Primal, sg.Primal, bound)
				}
				if h.Constraints != sg.Constraints || h.Iterations != sg.Iterations {
					differ = true
				}
				t.Logf("%s: primal H %.6f eq.(1) %.6f (bound %.2g); passes %d/%d, constraints %d/%d, oracle calls %d/%d",
					name, h.Primal, sg.Primal, bound, h.Iterations, sg.Iterations, h.Constraints, sg.Constraints, h.OracleCalls, sg.OracleCalls)
			}
		}
	}
	if !differ {
		t.Error("the two criteria took the same path on every problem: is the criterion param ignored?")
	}
}
