package trainers

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/maxmargin/repro/structpred"
)

// The one-slack solver's two economies, at the values dlib uses: each
// instance's cache keeps the constraints of its last cacheSize oracle calls,
// and a joint constraint is dropped once it has sat at α = 0 for more than
// inactiveAfter consecutive iterations.
const (
	cacheSize     = 5
	inactiveAfter = 20
)

// oneSlack is the 1-slack cutting-plane algorithm of Joachims, Finley & Yu
// (2009, Algorithm 4) for the generic constraint form: it minimises
//
//	½‖w‖² + C ξ   s.t.   w·Σ_g a_g ≥ Σ_g b_g − ξ   for every choice of one
//	                                               constraint per group,
//
// whose optimum is that of the n-slack problem ½‖w‖² + C Σ_g ξ_g (their
// Theorem 1). Each iteration builds one joint constraint from every group's
// most violated constraint (a group with none violated contributes nothing)
// and re-solves the small dense dual over the joint constraints found so far.
//
// Most iterations call no oracle (the economy of SVM-struct 3 and dlib):
// each instance keeps the constraints its last cacheSize oracle calls
// produced, and the joint constraint built from every group's most violated
// cached constraint is used as long as its violation beyond ξ is more than
// G·ε and more than half the excess the last oracle pass found (the
// halving schedule SVM-struct 3 uses for its cache tolerance), so that
// stale cached constraints cannot drag the run through many weak
// iterations. Otherwise an oracle pass over every instance builds the joint
// constraint afresh, and if it is violated by at most ξ + G·ε the run
// stops. Then Σ_g ξ_g at w exceeds the working-set ξ by at most G·ε, which
// bounds the primal sub-optimality by C·G·ε, n-slack's bound at the same
// ε; and that pass gives the true slacks at w, so the true primal comes for
// free.
func oneSlack(ctx context.Context, n, dim int, sep Separator, s Settings) (*Result, error) {
	start := time.Now()
	cp := newCheckpointer(s.Checkpoint, nil)
	defer cp.close()
	groups := sep.Groups()
	epsJoint := s.Epsilon * float64(groups)
	o := &oneSlackRun{
		sep: sep, qp: newJointQP(dim, s.C), caches: make([]instanceCache, n),
		j: newJointBuilder(dim, groups),
	}
	st := Stats{}
	oracleBest := false       // o.j holds an oracle pass's joint constraint at w
	lastExcess := math.Inf(1) // violation beyond ξ of the last oracle pass's joint constraint
	for st.Iterations < s.MaxIterations {
		st.Iterations++
		st.Added = 0
		xi := o.qp.slack()
		o.fromCache()
		oracleBest = false
		if o.j.violation-xi <= math.Max(epsJoint, lastExcess/2) {
			if err := o.separate(ctx, &st); err != nil {
				return nil, err
			}
			oracleBest = true
			o.qp.refresh() // exact gradients, so that the test below is exact
			xi = o.qp.slack()
			lastExcess = o.j.violation - xi
		}
		st.Converged = oracleBest && o.j.violation <= xi+epsJoint
		if !st.Converged {
			a, b := o.j.constraint()
			o.qp.add(a, b, o.j.acc)
			st.Added = 1
			if err := o.qp.solve(ctx, s.QPTolerance); err != nil {
				return nil, err
			}
			o.qp.dropInactive()
		}
		st.WorkingPrimal, st.Dual = o.qp.objectives()
		if math.IsNaN(st.WorkingPrimal) || math.IsInf(st.WorkingPrimal, 0) {
			return nil, fmt.Errorf("iteration %d: %w", st.Iterations, ErrNotFinite)
		}
		st.Constraints, st.WorkingGap, st.QPUpdates, st.Elapsed = len(o.qp.b), st.WorkingPrimal-st.Dual, o.qp.updates, time.Since(start)
		if st.Converged {
			break
		}
		if s.Progress != nil && st.Iterations < s.MaxIterations {
			s.Progress(st)
		}
		if st.Iterations < s.MaxIterations && cp.due(st.Iterations) {
			if err := cp.at(st.Iterations, o.qp.w); err != nil {
				return nil, err
			}
		}
	}
	// The true slacks at the final w: from the converging oracle pass when
	// its oracle is exact, else from a certifying pass; either way no lower
	// than the best cached constraint of each group.
	w := o.qp.w
	found := make([]float64, groups)
	if !(st.Converged && isExact(sep) && s.Certifier == nil) {
		if err := certify(ctx, n, w, certifier(sep, s), found, &st); err != nil {
			return nil, err
		}
	}
	for i := range o.caches {
		o.caches[i].raise(found, w)
	}
	xiSum := 0.0
	for _, v := range found {
		xiSum += v
	}
	st.Primal = 0.5*dot(w, w) + s.C*xiSum
	st.Gap = st.Primal - st.Dual
	st.PrimalExact = s.Certifier != nil || isExact(sep)
	st.Elapsed = time.Since(start)
	if s.Progress != nil {
		s.Progress(st)
	}
	if err := cp.at(st.Iterations, w); err != nil {
		return nil, err
	}
	cp.record(&st)
	return &Result{W: w, Stats: st}, nil
}

// oneSlackRun is the state of one one-slack training run.
type oneSlackRun struct {
	sep    Separator
	qp     *jointQP
	caches []instanceCache
	j      *jointBuilder
	props  []structpred.Constraint
}

// fromCache builds the joint constraint at the current w from every
// instance's cache.
func (o *oneSlackRun) fromCache() {
	o.j.reset()
	for i := range o.caches {
		o.j.best(&o.caches[i], o.qp.w)
		o.j.addChosen()
	}
}

// separate builds the joint constraint at the current w from an oracle call
// for every instance (each answer joins the instance's cache, and the
// group's most violated cached constraint is taken, which for an exact
// oracle is its answer).
func (o *oneSlackRun) separate(ctx context.Context, st *Stats) error {
	w := o.qp.w
	o.j.reset()
	for i := range o.caches {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := &o.caches[i]
		// A separator may skip proposals violated no more than ξ_g; the
		// cache's best for g (over the batches the push below keeps) is a
		// lower bound on ξ_g that an exact oracle's answer then cannot
		// beat, so the group's contribution is unchanged.
		slack := func(g int) float64 { return c.slack(g, w) }
		var err error
		o.props, err = o.sep.Separate(i, w, slack, o.props[:0])
		st.OracleCalls++
		if err != nil {
			return fmt.Errorf("instance %d: %w", i, err)
		}
		for _, k := range o.props {
			if err := checkConstraint(k, len(o.j.chosen)); err != nil {
				return fmt.Errorf("instance %d: %w", i, err)
			}
		}
		c.push(o.props)
		o.j.best(c, w)
		o.j.addChosen()
	}
	return nil
}

// instanceCache is a ring of the constraints an instance's last cacheSize
// oracle calls proposed.
type instanceCache struct {
	batches [cacheSize][]structpred.Constraint
	next    int
}

// push stores a copy of one oracle answer, evicting the oldest.
func (c *instanceCache) push(props []structpred.Constraint) {
	c.batches[c.next] = append(c.batches[c.next][:0], props...)
	c.next = (c.next + 1) % cacheSize
}

// slack returns max(0, the largest violation at w of a cached constraint of
// group g), over the batches the next push keeps: a separator that skips
// proposals violated no more than this must not rely on one about to go.
func (c *instanceCache) slack(g int, w []float64) float64 {
	xi := 0.0
	for b, batch := range c.batches {
		if b == c.next {
			continue
		}
		for k := range batch {
			if batch[k].Group == g {
				xi = math.Max(xi, batch[k].Violation(w))
			}
		}
	}
	return xi
}

// raise lifts found[g] to the largest violation at w of a cached constraint
// of group g.
func (c *instanceCache) raise(found []float64, w []float64) {
	for _, batch := range c.batches {
		for k := range batch {
			found[batch[k].Group] = math.Max(found[batch[k].Group], batch[k].Violation(w))
		}
	}
}

// jointBuilder sums, over groups, the most violated constraint of each group
// into one joint constraint (Σ a, Σ b), in a dense scratch vector.
type jointBuilder struct {
	acc       []float64
	touched   []int32
	mark      []bool
	b         float64
	violation float64 // Σ over the contributing groups of b_g − w·a_g
	chosen    []*structpred.Constraint
	chosenV   []float64
	seen      []int // groups of the instance last passed to best
}

func newJointBuilder(dim, groups int) *jointBuilder {
	return &jointBuilder{
		acc: make([]float64, dim), mark: make([]bool, dim),
		chosen: make([]*structpred.Constraint, groups), chosenV: make([]float64, groups),
	}
}

func (j *jointBuilder) reset() {
	for _, i := range j.touched {
		j.acc[i], j.mark[i] = 0, false
	}
	j.touched, j.b, j.violation = j.touched[:0], 0, 0
}

// best picks, for every group of one instance's cache, its most violated
// constraint at w (ties keep the oldest, so the choice depends on nothing
// but w and the cache); addChosen then adds the violated ones to the joint
// constraint.
func (j *jointBuilder) best(c *instanceCache, w []float64) {
	for _, g := range j.seen { // a previous pick that was not added
		j.chosen[g] = nil
	}
	j.seen = j.seen[:0]
	for b := range c.batches {
		batch := c.batches[(c.next+b)%cacheSize] // oldest first
		for k := range batch {
			g, v := batch[k].Group, batch[k].Violation(w)
			if j.chosen[g] == nil {
				j.seen = append(j.seen, g)
			} else if v <= j.chosenV[g] {
				continue
			}
			j.chosen[g], j.chosenV[g] = &batch[k], v
		}
	}
	slices.Sort(j.seen)
}

// addChosen adds the violated constraints picked by the last call of best.
func (j *jointBuilder) addChosen() {
	for _, g := range j.seen {
		if k := j.chosen[g]; j.chosenV[g] > 0 {
			for p, i := range k.A.Idx {
				if !j.mark[i] {
					j.mark[i] = true
					j.touched = append(j.touched, i)
				}
				j.acc[i] += k.A.Val[p]
			}
			j.b += k.B
			j.violation += j.chosenV[g]
		}
		j.chosen[g] = nil
	}
	j.seen = j.seen[:0]
}

// constraint returns the joint constraint built since the last reset.
func (j *jointBuilder) constraint() (structpred.SparseVec, float64) {
	slices.Sort(j.touched)
	a := structpred.SparseVec{Idx: make([]int32, 0, len(j.touched)), Val: make([]float64, 0, len(j.touched))}
	for _, i := range j.touched {
		if v := j.acc[i]; v != 0 {
			a.Idx = append(a.Idx, i)
			a.Val = append(a.Val, v)
		}
	}
	return a, j.b
}
