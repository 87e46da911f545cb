package trainers

import (
	"context"
	"math"

	"github.com/maxmargin/repro/structpred"
)

// workingSet holds the constraints found so far, their dual variables α and
// the primal point w(α) = Σ_j α_j a_j, kept explicitly so that no Gram matrix
// is ever formed.
//
// The dual is D(α) = Σ_j α_j b_j − ½‖w(α)‖² subject to α ≥ 0 and
// Σ_{j∈g} α_j ≤ C for every group g. Each group is optimised exactly by an
// SMO-style pair step on the simplex {α_g, α_slack ≥ 0, Σ α_g + α_slack = C},
// where α_slack is a virtual coordinate with a = 0, b = 0: moving mass between
// the most and least violated members (the slack included) is what keeps the
// solver from stalling once a group's budget C is exhausted.
//
// Each group caches its members' violations b_j − w·a_j together with the
// version of w they were computed at. A group's own pair steps keep the cache
// exact through its Gram matrix (and advance it to the new version), so the
// sparse dot products against w are redone only when w has moved because of
// another group since the group was last looked at: asking for a group's
// slack, checking a proposal against it and optimising it right after a
// constraint was added cost one set of dot products instead of three.
//
// The constraints' vectors are kept packed (see packedVec: a quarter of a
// SparseVec's memory, with bit-identical arithmetic), so that the sweeps,
// whose re-dots stream every vector of the working set, read less memory;
// proposals that share one vector (PosLearn's positions) share its packed
// copy too.
type workingSet struct {
	c       float64
	w       []float64
	version uint64 // incremented whenever w moves
	cons    []constraint
	groups  map[int]*group
	order   []int // groups in first-seen order, for deterministic sweeps
	updates int   // pair steps taken, for reporting
	// scratch holds a newcomer's vector densely while its Gram row is
	// computed (zero otherwise); packed maps the proposals' vectors seen
	// since the last forget to their packed copies.
	scratch []float64
	packed  map[vecKey]*packedVec
	// dots and live are refreshLive's: the violations' dot products and
	// the members they are for.
	dots []float64
	live []int
	// idle counts, per constraint (parallel to cons), the consecutive
	// passes it ended idle (see dropIdle).
	idle []int
	// quad, if set, makes this the hard-margin problem over augmented
	// constraints that SVM_2 is (see augmentedSeparator): c is +Inf, so no
	// group has a budget, and objectives and solve's tolerance are SVM_2's.
	quad *quadSlack
}

type constraint struct {
	a     *packedVec
	b     float64
	alpha float64
	loss  float64 // the task loss of the labeling behind it (Stats.SupportLoss)
}

// group is one slack group's constraints and their Gram matrix
// gram[j][k] = a_j·a_k (groups are small, and the matrix turns each pair
// step's gradient update from |g| sparse-dense dot products into |g| reads).
type group struct {
	members []int // indices into cons, in insertion order
	gram    [][]float64
	grad    []float64 // b_j − w·a_j per member, exact while at == version
	at      uint64    // the version of w that grad was computed at
	sum     float64   // Σ_{j∈g} α_j
	// shrunk marks members at α = 0 whose violation was, at the group's last
	// full visit, below every member that could give up mass (KKT-optimal
	// at their bound, as in LIBSVM's shrinking): partial visits neither
	// re-dot nor consider them, and partial says grad is stale for them.
	shrunk  []bool
	partial bool
}

func newWorkingSet(dim int, c float64, quad *quadSlack) *workingSet {
	s := &workingSet{c: c, w: make([]float64, dim), groups: make(map[int]*group), packed: make(map[vecKey]*packedVec), quad: quad}
	if quad != nil {
		s.c = math.Inf(1)
	}
	return s
}

// forget ends a batch of proposals: later ones are not matched with its
// vectors by storage, which the collector may reuse once they are dropped.
func (s *workingSet) forget() { clear(s.packed) }

// add inserts a constraint with α = 0 (so w does not move). Its Gram row
// is computed against a dense copy of its vector, in the index order and
// with the products that the sparse merge would form (the other terms are
// zeros), so it is bit-identical to that.
func (s *workingSet) add(k structpred.Constraint) {
	g, ok := s.groups[k.Group]
	if !ok {
		g = &group{at: s.version}
		s.groups[k.Group] = g
		s.order = append(s.order, k.Group)
	}
	if g.at == s.version { // keep the cache exact: one dot for the newcomer
		g.grad = append(g.grad, k.Violation(s.w))
	}
	g.shrunk = append(g.shrunk, false)
	row := make([]float64, len(g.members)+1)
	if len(g.members) > 0 {
		if s.scratch == nil {
			s.scratch = make([]float64, len(s.w))
		}
		for e, i := range k.A.Idx {
			s.scratch[i] = k.A.Val[e]
		}
		dotEach(s.scratch, row[:len(g.members)], func(m int) *packedVec { return s.cons[g.members[m]].a })
		for m := range g.members {
			g.gram[m] = append(g.gram[m], row[m])
		}
		for _, i := range k.A.Idx {
			s.scratch[i] = 0
		}
	}
	row[len(g.members)] = k.A.SquaredNorm()
	g.gram = append(g.gram, row)
	g.members = append(g.members, len(s.cons))
	s.cons = append(s.cons, constraint{a: s.pack(k.A), b: k.B, loss: k.Loss})
	s.idle = append(s.idle, 0)
}

// dropIdle counts, per constraint, the consecutive passes it ended idle and
// removes those idle for more than after passes, returning how many went
// (Settings.DropIdle; jointQP.dropInactive does the same for the one-slack
// solver). A constraint ends a pass idle if its α is 0 and, with margin > 0,
// its violation is below its group's slack by more than margin. Only α = 0
// members go, so w, every group's sum, the dual and every kept member's
// cached violation are unchanged: each group's members, Gram matrix, grad
// and shrunk flags are compacted together and cons is renumbered in order.
func (s *workingSet) dropIdle(after int, margin float64) int {
	drop := false
	for _, gi := range s.order {
		g := s.groups[gi]
		xi := 0.0
		if margin > 0 {
			s.refresh(g) // a no-op after solve, which ends on exact objectives
			for _, v := range g.grad {
				xi = math.Max(xi, v)
			}
		}
		for m, j := range g.members {
			if s.cons[j].alpha > 0 || (margin > 0 && g.grad[m] >= xi-margin) {
				s.idle[j] = 0
				continue
			}
			s.idle[j]++
			drop = drop || s.idle[j] > after
		}
	}
	if !drop {
		return 0
	}
	// newIdx maps a kept constraint's old index to its new one (-1: dropped).
	newIdx := make([]int, len(s.cons))
	n := 0
	for j := range s.cons {
		if s.cons[j].alpha == 0 && s.idle[j] > after {
			newIdx[j] = -1
			continue
		}
		newIdx[j] = n
		s.cons[n], s.idle[n] = s.cons[j], s.idle[j]
		n++
	}
	removed := len(s.cons) - n
	clear(s.cons[n:]) // release the dropped vectors
	s.cons, s.idle = s.cons[:n], s.idle[:n]
	var kept []int
	for _, gi := range s.order {
		g := s.groups[gi]
		kept = kept[:0]
		for m, j := range g.members {
			if newIdx[j] >= 0 {
				kept = append(kept, m)
			}
		}
		if len(kept) == len(g.members) {
			for m, j := range g.members {
				g.members[m] = newIdx[j]
			}
			continue
		}
		// grad may be shorter than members when stale (newcomers added
		// while w had moved sit at the end): keep its prefix's survivors.
		ng := 0
		for r, m := range kept { // kept is increasing: every move is leftwards
			row := g.gram[m]
			for c, l := range kept {
				row[c] = row[l]
			}
			g.gram[r] = row[:len(kept)]
			g.members[r] = newIdx[g.members[m]]
			g.shrunk[r] = g.shrunk[m]
			if m < len(g.grad) {
				g.grad[r] = g.grad[m]
				ng = r + 1
			}
		}
		k := len(kept)
		clear(g.gram[k:])
		g.gram, g.members, g.shrunk, g.grad = g.gram[:k], g.members[:k], g.shrunk[:k], g.grad[:ng]
	}
	return removed
}

// pack returns the packed copy of a, shared with the proposals of the
// current batch whose vector is a's storage.
func (s *workingSet) pack(a structpred.SparseVec) *packedVec {
	if len(a.Idx) == 0 || len(a.Val) == 0 {
		p := new(packedVec)
		packVec(p, a)
		return p
	}
	key := vecKey{&a.Idx[0], &a.Val[0], len(a.Idx)}
	if p, ok := s.packed[key]; ok {
		return p
	}
	p := new(packedVec)
	packVec(p, a)
	s.packed[key] = p
	return p
}

// refresh makes g's cached violations exact at the current w, re-dotting its
// constraints only if w moved since they were computed.
func (s *workingSet) refresh(g *group) {
	if g.at == s.version && len(g.grad) == len(g.members) && !g.partial {
		return
	}
	g.grad = growFloats(g.grad, len(g.members))
	dotEach(s.w, g.grad, func(k int) *packedVec { return s.cons[g.members[k]].a })
	for k, j := range g.members {
		g.grad[k] = s.cons[j].b - g.grad[k]
	}
	g.at, g.partial = s.version, false
}

// refreshLive is refresh for the members that are not shrunk only.
func (s *workingSet) refreshLive(g *group) {
	if g.at == s.version && len(g.grad) == len(g.members) {
		return
	}
	for len(g.grad) < len(g.members) {
		g.grad = append(g.grad, 0) // a newcomer: never shrunk, set below
	}
	s.live = s.live[:0]
	for k, shrunk := range g.shrunk {
		if shrunk {
			g.partial = true
			continue
		}
		s.live = append(s.live, k)
	}
	s.dots = growFloats(s.dots, len(s.live))
	dotEach(s.w, s.dots, func(l int) *packedVec { return s.cons[g.members[s.live[l]]].a })
	for l, k := range s.live {
		g.grad[k] = s.cons[g.members[k]].b - s.dots[l]
	}
	g.at = s.version
}

// slack returns ξ_g = max(0, max_{j∈g} b_j − w·a_j) over the working set.
func (s *workingSet) slack(g int) float64 {
	grp, ok := s.groups[g]
	if !ok {
		return 0 // no constraint yet: ξ_g = 0
	}
	s.refresh(grp)
	xi := 0.0
	for _, v := range grp.grad {
		xi = math.Max(xi, v)
	}
	return xi
}

// optimizeGroup runs pair steps on group g until its KKT violation is below
// tol or maxSteps steps were taken, and returns the number of steps taken.
// A full visit considers every member and then re-marks the shrunk ones; a
// partial visit skips the shrunk members.
func (s *workingSet) optimizeGroup(gi int, tol float64, maxSteps int, full bool) int {
	g := s.groups[gi]
	if full {
		s.refresh(g)
		clear(g.shrunk)
	} else {
		s.refreshLive(g)
	}
	steps := s.pairSteps(g, tol, maxSteps)
	if full {
		s.shrink(g, tol)
	}
	return steps
}

// shrink marks the members at α = 0 whose violation is below, by more than
// tol, the smallest one among the members that hold mass (the virtual slack,
// at 0, among them while the budget is not spent): no pair step can raise
// them until w moves that far.
func (s *workingSet) shrink(g *group, tol float64) {
	floor := math.Inf(1)
	if s.c-g.sum > 0 {
		floor = 0
	}
	for k, j := range g.members {
		if s.cons[j].alpha > 0 {
			floor = math.Min(floor, g.grad[k])
		}
	}
	for k, j := range g.members {
		g.shrunk[k] = s.cons[j].alpha == 0 && g.grad[k] < floor-tol
	}
}

// pairSteps is optimizeGroup's loop over the members not shrunk.
func (s *workingSet) pairSteps(g *group, tol float64, maxSteps int) int {
	idx := g.members
	grad := g.grad
	sum := g.sum
	defer func() { g.sum = sum }()
	const slackIdx = -1
	for step := 0; step < maxSteps; step++ {
		slackAlpha := s.c - sum
		// up: the coordinate to increase (largest gradient; the slack's is 0);
		// down: the one to decrease (smallest gradient among α > 0).
		up, gUp := slackIdx, 0.0
		down, gDown := slackIdx, math.Inf(1)
		if slackAlpha > 0 {
			gDown = 0
		}
		for k, j := range idx {
			if g.shrunk[k] {
				continue
			}
			if grad[k] > gUp {
				up, gUp = k, grad[k]
			}
			if s.cons[j].alpha > 0 && grad[k] < gDown {
				down, gDown = k, grad[k]
			}
		}
		if up == down || gUp-gDown <= tol {
			return step
		}
		var q, room float64
		switch {
		case down == slackIdx:
			q, room = g.gram[up][up], slackAlpha
		case up == slackIdx:
			q, room = g.gram[down][down], s.cons[idx[down]].alpha
		default:
			q = g.gram[up][up] + g.gram[down][down] - 2*g.gram[up][down]
			room = s.cons[idx[down]].alpha
		}
		t := room
		if q > 0 {
			t = math.Min(room, (gUp-gDown)/q)
		}
		if t <= 0 {
			return step
		}
		// grad stays exact through the Gram matrix: advance w's version
		// and the group's stamp together.
		s.version++
		g.at = s.version
		// w moves by t·(a_up − a_down); every gradient b_k − w·a_k moves by
		// −t·(a_k·a_up − a_k·a_down).
		if up != slackIdx {
			c := &s.cons[idx[up]]
			c.alpha += t
			sum += t
			c.a.AddTo(s.w, t)
			// gram is symmetric, exactly (add stores each product in both
			// places): its row is read, contiguous, for the column.
			for k, x := range g.gram[up][:len(grad)] {
				grad[k] -= t * x
			}
		}
		if down != slackIdx {
			c := &s.cons[idx[down]]
			c.alpha -= t
			sum -= t
			if c.alpha < 0 {
				sum -= c.alpha
				c.alpha = 0
			}
			c.a.AddTo(s.w, -t)
			for k, x := range g.gram[down][:len(grad)] {
				grad[k] += t * x
			}
		}
		s.updates++
	}
	return maxSteps
}

// objectives returns the primal ½‖w‖² + C Σ_g ξ_g (slacks over the working
// set) and the dual Σ α_j b_j − ½‖w‖² at the current α (with quad, SVM_2's:
// see quadObjectives).
func (s *workingSet) objectives() (primal, dual float64) {
	if s.quad != nil {
		return s.quadObjectives()
	}
	var ww float64
	for _, x := range s.w {
		ww += x * x
	}
	var ab, xiSum float64
	for _, c := range s.cons {
		ab += c.alpha * c.b
	}
	for _, g := range s.order {
		xiSum += s.slack(g)
	}
	return 0.5*ww + s.c*xiSum, ab - 0.5*ww
}

// solve sweeps the groups until the primal-dual gap is at most
// max(relTol·max(1, primal), absTol) or maxSweeps sweeps have run, or ctx
// is done. It
// returns the final primal, dual and the number of sweeps.
//
// Three economies keep sweeps cheap without touching the answer: the exact
// objectives (a pass over every constraint) are computed only when a sweep
// took no step or every checkEvery sweeps; groups already optimal on their
// last two visits are skipped except on those check sweeps; and between
// check sweeps a group's shrunk members are neither re-dotted nor
// considered. Check sweeps visit every member of every group, and
// termination is always decided by the exact gap.
func (s *workingSet) solve(ctx context.Context, relTol, absTol float64, maxSweeps int) (primal, dual float64, sweeps int, err error) {
	const checkEvery = 10
	primal, dual = s.objectives()
	quiet := make(map[int]int, len(s.order))
	for sweeps = 0; primal-dual > math.Max(relTol*math.Max(1, primal), absTol) && sweeps < maxSweeps; {
		// A final solve can run for minutes at large C; stay interruptible.
		if err := ctx.Err(); err != nil {
			return primal, dual, sweeps, err
		}
		// A group whose pairwise KKT violation is below τ contributes at most
		// about C·τ to the gap. Early on, solving each block to the final τ
		// wastes steps on blocks that the next sweep perturbs again, so τ
		// follows the current gap down to the target.
		groups := s.c * float64(len(s.order))
		if s.quad != nil {
			groups = s.quadKKTScale()
		}
		kkt := math.Max(math.Max(relTol*math.Max(1, primal), absTol), 0.1*(primal-dual)) / groups
		full := sweeps%checkEvery == 0
		moved := false
		for _, g := range s.order {
			if !full && quiet[g] >= 2 {
				continue
			}
			if s.optimizeGroup(g, kkt, 20, full) > 0 {
				quiet[g], moved = 0, true
			} else {
				quiet[g]++
			}
		}
		sweeps++
		if !moved || sweeps%checkEvery == 0 || sweeps >= maxSweeps {
			primal, dual = s.objectives()
		}
	}
	return primal, dual, sweeps, nil
}

// excess returns Σ_g max(0, found[g] − ξ_g): how far the largest violations
// an oracle pass at the current w found exceed the working-set slacks.
func (s *workingSet) excess(found []float64) float64 {
	var e float64
	for g, v := range found {
		e += math.Max(0, v-s.slack(g))
	}
	return e
}

// quadObjectives is objectives for SVM_2 (quad set). The dual of the
// augmented hard-margin problem, Σ α_j b_j − ½‖w̃‖², is SVM_2's, ‖w̃‖² =
// ‖w‖² + Σ_g A_g²/C with A_g = Σ_{j∈g} α_j. The primal is SVM_2's at w over
// the working set: group g's real slack is max(0, max_j b_j − w·a_j), and
// b_j − w·a_j = (b_j − w̃·ã_j) + A_g/C.
func (s *workingSet) quadObjectives() (primal, dual float64) {
	var ww, ab float64
	for _, x := range s.w {
		ww += x * x
	}
	for _, c := range s.cons {
		ab += c.alpha * c.b
	}
	var real, sq float64
	for _, x := range s.w[:s.quad.dim] {
		real += x * x
	}
	for _, gi := range s.order {
		g := s.groups[gi]
		s.refresh(g)
		xi := 0.0
		for _, v := range g.grad {
			xi = math.Max(xi, v+g.sum/s.quad.c)
		}
		sq += xi * xi
	}
	return 0.5*real + 0.5*s.quad.c*sq, ab - 0.5*ww
}

// quadKKTScale is, for SVM_2, what solve divides its gap target by to get
// the pairwise KKT tolerance τ: with every member's dual gradient within τ
// of the optimum's, group g's share of the gap is at most 2τA_g + Cτ²/2
// (docs/svm-variants.md), so τ·(2 Σ_g A_g + C·G) bounds the gap for τ ≤ 1.
func (s *workingSet) quadKKTScale() float64 {
	var sum float64
	for _, g := range s.order {
		sum += s.groups[g].sum
	}
	return 2*sum + s.quad.c*float64(len(s.order))
}

// support returns the number of constraints with α > 0 and the mean task
// loss of the labelings behind them (0 when there are none).
func (s *workingSet) support() (n int, meanLoss float64) {
	var sum float64
	for _, c := range s.cons {
		if c.alpha > 0 {
			n++
			sum += c.loss
		}
	}
	if n == 0 {
		return 0, 0
	}
	return n, sum / float64(n)
}
