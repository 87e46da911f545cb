package trainers

import (
	"context"
	"fmt"
	"math"
	"math/bits"
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
//
// With quad, sep is augmented (see augmentedSeparator) and the joint QP is
// the hard-margin problem it makes of SVM_2: joint constraints w̃·Σ_g ã_g ≥
// Σ_g b_g without slack, whose dual is max Σ_k α_k B_k − ½ αᵀ(G + H/C)α
// over α ≥ 0, H_kl the number of groups joint constraints k and l share
// (docs/svm-variants.md); the augmented coordinates compute H/C.
func oneSlack(ctx context.Context, n, dim int, sep Separator, s Settings, p pool, quad *quadSlack) (*Result, error) {
	start := time.Now()
	cp := newCheckpointer(s.Checkpoint, nil)
	defer cp.close()
	groups := sep.Groups()
	epsJoint := s.Epsilon * float64(groups)
	o, err := newOneSlackRun(n, dim, groups, sep, s.C, p, quad)
	if err != nil {
		return nil, err
	}
	qp := newQPTimer()
	st := Stats{}
	oracleBest := false       // o.j holds an oracle pass's joint constraint at w
	lastExcess := math.Inf(1) // violation beyond ξ of the last oracle pass's joint constraint
	for st.Iterations < s.MaxIterations {
		st.Iterations++
		st.Added = 0
		xi := o.qp.slack()
		if err := o.fromCache(ctx); err != nil {
			return nil, err
		}
		oracleBest = false
		if o.j.violation-xi <= math.Max(o.tolerance(s, epsJoint, 0), lastExcess/2) {
			if err := o.separate(ctx, &st); err != nil {
				return nil, err
			}
			oracleBest = true
			t0 := qp.start()
			o.qp.refresh() // exact gradients, so that the test below is exact
			qp.stop(t0)
			xi = o.qp.slack()
			lastExcess = o.j.violation - xi
		}
		if s.Relative {
			st.Converged = oracleBest && o.j.violation-xi <= o.tolerance(s, epsJoint, o.j.violation-xi)
		} else {
			st.Converged = oracleBest && o.j.violation <= xi+epsJoint
		}
		if !st.Converged {
			a, b := o.j.constraint()
			t0 := qp.start()
			o.qp.add(a, b, o.j.acc, o.j.count, o.j.lossSum)
			st.Added = 1
			if err := o.qp.solve(ctx, s.QPTolerance); err != nil {
				return nil, err
			}
			o.qp.dropInactive()
			qp.stop(t0)
		}
		qp.record(&st)
		st.WorkingPrimal, st.Dual = o.qp.objectives()
		if math.IsNaN(st.WorkingPrimal) || math.IsInf(st.WorkingPrimal, 0) {
			return nil, fmt.Errorf("iteration %d: %w", st.Iterations, ErrNotFinite)
		}
		st.Constraints, st.WorkingGap, st.QPUpdates, st.Elapsed = len(o.qp.b), st.WorkingPrimal-st.Dual, o.qp.updates, time.Since(start)
		st.OtherThreadsCPU = p.cpu.Total()
		if st.Converged {
			break
		}
		if s.Progress != nil && st.Iterations < s.MaxIterations {
			s.Progress(st)
		}
		if st.Iterations < s.MaxIterations && cp.due(st.Iterations) {
			if err := cp.at(st.Iterations, quad.model(o.qp.w)); err != nil {
				return nil, err
			}
		}
	}
	if quad != nil {
		return o.finishQuad(ctx, n, st, s, start, cp, quad)
	}
	// The true slacks at the final w: from the converging oracle pass when
	// its oracle is exact, else from a certifying pass; either way no lower
	// than the best cached constraint of each group.
	w := o.qp.w
	found := make([]float64, groups)
	if !(st.Converged && isExact(sep) && s.Certifier == nil) {
		certifiers := o.seps
		if s.Certifier != nil {
			if certifiers, err = forks(s.Certifier, p.workers(n)); err != nil {
				return nil, err
			}
		}
		if err := certify(ctx, n, w, certifiers, found, &st, p); err != nil {
			return nil, err
		}
	}
	if err := o.raise(ctx, found); err != nil {
		return nil, err
	}
	xiSum := 0.0
	for _, v := range found {
		xiSum += v
	}
	st.Primal = 0.5*dot(w, w) + s.C*xiSum
	st.Gap = st.Primal - st.Dual
	st.PrimalExact = s.Certifier != nil || isExact(sep)
	st.Elapsed = time.Since(start)
	st.OtherThreadsCPU = p.cpu.Total()
	if s.Progress != nil {
		s.Progress(st)
	}
	if err := cp.at(st.Iterations, w); err != nil {
		return nil, err
	}
	cp.record(&st)
	st.Support, st.SupportLoss = o.qp.support()
	return &Result{W: w, Stats: st}, nil
}

// finishQuad ends an SVM_2 run: the true slacks come from a pass of the
// real (not augmented) certifier at the model's w, since the run's own
// oracle passes measured augmented violations.
func (o *oneSlackRun) finishQuad(ctx context.Context, n int, st Stats, s Settings, start time.Time, cp *checkpointer, quad *quadSlack) (*Result, error) {
	w := quad.model(o.qp.w)
	certifiers, err := forks(quad.certifier, o.pool.workers(n))
	if err != nil {
		return nil, err
	}
	found := make([]float64, o.pickers[0].groups())
	if err := certify(ctx, n, w, certifiers, found, &st, o.pool); err != nil {
		return nil, err
	}
	st.Primal = quad.primal(w, found)
	st.Gap = st.Primal - st.Dual
	st.PrimalExact = isExact(quad.certifier)
	st.Elapsed = time.Since(start)
	st.OtherThreadsCPU = o.pool.cpu.Total()
	if s.Progress != nil {
		s.Progress(st)
	}
	if err := cp.at(st.Iterations, w); err != nil {
		return nil, err
	}
	cp.record(&st)
	st.Support, st.SupportLoss = o.qp.support()
	return &Result{W: w, Stats: st}, nil
}

// tolerance is how far the joint constraint may be violated beyond ξ for
// the run to stop (or the cache to yield to the oracle): G·ε, or with a
// relative ε (Settings.Relative) ε·P/C, where P is the working primal plus
// C times excess, the joint constraint's violation beyond ξ (P is then the
// true primal at w when the constraint is an oracle pass's).
func (o *oneSlackRun) tolerance(s Settings, epsJoint, excess float64) float64 {
	if !s.Relative {
		return epsJoint
	}
	p, _ := o.qp.objectives()
	return s.Epsilon * (p/s.C + math.Max(0, excess))
}

// oneSlackRun is the state of one one-slack training run.
type oneSlackRun struct {
	qp     *jointQP
	caches []instanceCache
	j      *jointBuilder
	// picks[i] is instance i's contribution to the joint constraint being
	// built: each of its groups' most violated cached constraint.
	picks [][]pick
	pool  pool
	// Per goroutine k of the pool: the separator (seps[0] is the training
	// oracle itself, the others its forks), its proposals' buffer and the
	// scratch of its picker.
	seps    []Separator
	props   [][]structpred.Constraint
	pickers []picker
	// With lazy separators (nil otherwise), the caches keep labelings:
	// lazy[k] is seps[k], lprops and ldirs its proposals' buffers, and
	// contrib[i] instance i's violated picks summed (by the pool's
	// goroutines, each in builders[k]) for the joint constraint.
	lazy     []lazySeparator
	lprops   [][]lazyProposal
	ldirs    [][]lazyDir
	contrib  []packedVec
	builders []*jointBuilder
}

func newOneSlackRun(n, dim, groups int, sep Separator, c float64, p pool, quad *quadSlack) (*oneSlackRun, error) {
	seps, err := forks(sep, p.workers(n))
	if err != nil {
		return nil, err
	}
	o := &oneSlackRun{
		qp: newJointQP(dim, c, quad, groups), caches: make([]instanceCache, n), j: newJointBuilder(dim),
		picks: make([][]pick, n), pool: p,
		seps: seps, props: make([][]structpred.Constraint, len(seps)), pickers: make([]picker, len(seps)),
	}
	for k := range o.pickers {
		o.pickers[k] = newPicker(groups)
	}
	if o.lazy = asLazy(seps); o.lazy != nil {
		o.lprops, o.ldirs = make([][]lazyProposal, len(seps)), make([][]lazyDir, len(seps))
		o.contrib, o.builders = make([]packedVec, n), make([]*jointBuilder, len(seps))
		for k := range o.builders {
			o.builders[k] = newJointBuilder(dim)
		}
	}
	return o, nil
}

// lazyAt returns goroutine k's lazy separator, or nil if the caches keep
// vectors.
func (o *oneSlackRun) lazyAt(k int) lazySeparator {
	if o.lazy == nil {
		return nil
	}
	return o.lazy[k]
}

// pick sets instance i's picks at w from its cache, on goroutine k, and
// with lazy separators sums its violated ones into contrib[i].
func (o *oneSlackRun) pick(k, i int, w []float64) {
	lz := o.lazyAt(k)
	o.picks[i] = o.pickers[k].best(&o.caches[i], i, lz, w, o.picks[i][:0])
	if lz == nil {
		return
	}
	// Picks share a direction where PosLearn's positions share a labeling:
	// each distinct one is built once and added with its multiplicity
	// (exact for integer-valued features; for real ones, a rounding-level
	// change of the order of additions).
	b, p := o.builders[k], &o.pickers[k]
	b.reset()
	p.order = p.order[:0]
	for _, q := range o.picks[i] {
		if !(q.v > 0) {
			continue
		}
		if p.count[q.d] == 0 {
			p.order = append(p.order, q.d)
		}
		p.count[q.d]++
	}
	for _, d := range p.order {
		lz.addDir(i, *d, float64(p.count[d])*d.scale, b)
	}
	clear(p.count)
	clear(p.order) // the cache may evict them
	b.sortTouched()
	packDense(&o.contrib[i], b.acc, b.touched)
}

// fromCache builds the joint constraint at the current w from every
// instance's cache.
func (o *oneSlackRun) fromCache(ctx context.Context) error {
	w := o.qp.w
	err := o.pool.forEach(ctx, len(o.caches), func(k, i int) error {
		o.pick(k, i, w)
		return nil
	})
	if err != nil {
		return err
	}
	o.j.sum(o.picks, o.contrib)
	return nil
}

// separate builds the joint constraint at the current w from an oracle call
// for every instance (each answer joins the instance's cache, and the
// group's most violated cached constraint is taken, which for an exact
// oracle is its answer). The calls run on the pool's goroutines, each
// touching only its instance's cache and pick; the joint constraint is
// then summed in instance order, so it does not depend on the threads.
func (o *oneSlackRun) separate(ctx context.Context, st *Stats) error {
	w := o.qp.w
	groups := o.pickers[0].groups()
	err := o.pool.forEach(ctx, len(o.caches), func(k, i int) error {
		c, p, lz := &o.caches[i], &o.pickers[k], o.lazyAt(k)
		// A separator may skip proposals violated no more than ξ_g; the
		// cache's best for g (over the batches the push below keeps) is a
		// lower bound on ξ_g that an exact oracle's answer then cannot
		// beat, so the group's contribution is unchanged.
		p.cachedSlacks(c, i, lz, w)
		defer p.clearSlacks()
		slack := func(g int) float64 { return p.slack[g] }
		if lz != nil {
			props, dirs, err := lz.separateLazy(i, w, slack, o.lprops[k][:0], o.ldirs[k][:0])
			o.lprops[k], o.ldirs[k] = props, dirs
			if err != nil {
				return fmt.Errorf("instance %d: %w", i, err)
			}
			for _, q := range props {
				if err := checkLazy(q, dirs, groups); err != nil {
					return fmt.Errorf("instance %d: %w", i, err)
				}
			}
			c.pushLazy(props, dirs)
			clear(dirs) // the cache holds the labelings now
		} else {
			props, err := o.seps[k].Separate(i, w, slack, o.props[k][:0])
			o.props[k] = props
			if err != nil {
				return fmt.Errorf("instance %d: %w", i, err)
			}
			for _, q := range props {
				if err := checkConstraint(q, groups); err != nil {
					return fmt.Errorf("instance %d: %w", i, err)
				}
			}
			c.push(props, p.seen)
		}
		o.pick(k, i, w)
		return nil
	})
	if err != nil {
		return err
	}
	st.OracleCalls += len(o.caches)
	o.j.sum(o.picks, o.contrib)
	return nil
}

// raise lifts found[g] to the largest violation at w of a cached constraint
// of group g, on the pool's goroutines (each into a copy of found of its
// own, merged by max, which does not depend on the order).
func (o *oneSlackRun) raise(ctx context.Context, found []float64) error {
	w := o.qp.w
	return groupMax(ctx, o.pool, len(o.caches), found, func(k, i int, found []float64) error {
		o.pickers[k].raise(&o.caches[i], found, i, o.lazyAt(k), w)
		return nil
	})
}

// instanceCache is a ring of the constraints an instance's last cacheSize
// oracle calls proposed.
type instanceCache struct {
	batches [cacheSize]cachedBatch
	next    int
}

// cachedBatch is one oracle answer as the cache keeps it: its distinct
// directions, packed or (from a lazy separator) as labelings, PosLearn's
// positions often sharing one; and per constraint its group, direction and
// margin.
type cachedBatch struct {
	vecs []packedVec
	dirs []lazyDir
	cons []cachedConstraint
}

type cachedConstraint struct {
	group int
	vec   int32 // index in the batch's vecs or dirs
	b     float64
	loss  float64 // the proposal's Loss (Stats.SupportLoss)
}

// vecKey identifies a proposal's direction by its storage: proposals whose
// A is the same vector (the same slices) share one packed copy.
type vecKey struct {
	idx *int32
	val *float64
	n   int
}

// push stores one oracle answer, evicting the oldest; directions the
// proposals share are packed once. seen is the caller's scratch (one per
// goroutine), empty on return.
func (c *instanceCache) push(props []structpred.Constraint, seen map[vecKey]int32) {
	bt := &c.batches[c.next]
	c.next = (c.next + 1) % cacheSize
	bt.cons = bt.cons[:0]
	nvec := 0
	for k := range props {
		a := props[k].A
		var key vecKey
		if len(a.Idx) > 0 && len(a.Val) > 0 {
			key = vecKey{&a.Idx[0], &a.Val[0], len(a.Idx)}
			if v, ok := seen[key]; ok {
				bt.cons = append(bt.cons, cachedConstraint{props[k].Group, v, props[k].B, props[k].Loss})
				continue
			}
		}
		if nvec == len(bt.vecs) {
			bt.vecs = append(bt.vecs, packedVec{})
		}
		packVec(&bt.vecs[nvec], a)
		if key.idx != nil {
			seen[key] = int32(nvec)
		}
		bt.cons = append(bt.cons, cachedConstraint{props[k].Group, int32(nvec), props[k].B, props[k].Loss})
		nvec++
	}
	clear(seen) // its keys would keep the proposals' memory alive
	clear(bt.vecs[nvec:])
	bt.vecs = bt.vecs[:nvec]
}

// pushLazy is push for a lazy separator's proposals and directions.
func (c *instanceCache) pushLazy(props []lazyProposal, dirs []lazyDir) {
	bt := &c.batches[c.next]
	c.next = (c.next + 1) % cacheSize
	bt.cons = bt.cons[:0]
	for _, p := range props {
		bt.cons = append(bt.cons, cachedConstraint{p.group, p.dir, p.b, p.b}) // PosLearn's Loss is its b
	}
	clear(bt.dirs) // release the evicted labelings
	bt.dirs = append(bt.dirs[:0], dirs...)
}

// raise lifts found[g] to the largest violation at w of a cached constraint
// of group g (instance i's cache c; lz is nil unless it keeps labelings).
func (p *picker) raise(c *instanceCache, found []float64, i int, lz lazySeparator, w []float64) {
	if lz != nil {
		defer lz.pin(i, w)()
	}
	p.cacheDots(c, i, lz, w, -1)
	for b := range c.batches {
		for _, k := range c.batches[b].cons {
			found[k.group] = math.Max(found[k.group], k.b-p.dots[p.off[b]+int(k.vec)])
		}
	}
}

// cacheDots sets p.dots to the dot products with w of the directions of
// every batch of instance i's cache c but batch skip (-1: none), batch b's
// from p.off[b]. The vectors of all batches go to one dotEach, so that a
// cache of one-direction batches (margin's) is still summed four at a
// time.
func (p *picker) cacheDots(c *instanceCache, i int, lz lazySeparator, w []float64, skip int) {
	p.dots = p.dots[:0]
	if lz != nil {
		for b := range c.batches {
			p.off[b] = len(p.dots)
			if b != skip {
				p.dots = lz.dirDots(i, w, c.batches[b].dirs, p.dots)
			}
		}
		return
	}
	p.vecs = p.vecs[:0]
	for b := range c.batches {
		p.off[b] = len(p.vecs)
		if b == skip {
			continue
		}
		for v := range c.batches[b].vecs {
			p.vecs = append(p.vecs, &c.batches[b].vecs[v])
		}
	}
	p.dots = growFloats(p.dots, len(p.vecs))
	dotEach(w, p.dots, func(k int) *packedVec { return p.vecs[k] })
	clear(p.vecs) // the batches may drop their vectors before the next call
}

// pick is one group's most violated cached constraint at w and its
// violation b − w·a there; a is the direction of a cache of vectors, d of
// one of labelings.
type pick struct {
	group int
	a     *packedVec
	d     *lazyDir
	b     float64
	v     float64
	loss  float64
}

// picker finds, for every group of one instance's cache, its most violated
// constraint at w. Each goroutine has its own: all its fields are scratch.
type picker struct {
	slot  []int32 // per group: 1 + the index of its pick in the picks being built; 0 if none yet
	dots  []float64
	off   [cacheSize]int   // cacheDots': where each batch's dots start
	vecs  []*packedVec     // cacheDots': the vectors dotted
	seen  map[vecKey]int32 // instanceCache.push's scratch
	slack []float64        // per group: cachedSlacks' answer, 0 elsewhere
	set   []int            // the groups cachedSlacks set
	count map[*lazyDir]int32
	order []*lazyDir
}

func newPicker(groups int) picker {
	return picker{
		slot: make([]int32, groups), seen: make(map[vecKey]int32),
		slack: make([]float64, groups), count: make(map[*lazyDir]int32),
	}
}

func (p *picker) groups() int { return len(p.slot) }

// cachedSlacks sets p.slack[g], for every group g of instance i's cache c,
// to max(0, the largest violation at w of its cached constraints) over the
// batches the next push keeps: a separator that skips proposals violated
// no more than this must not rely on one about to go. clearSlacks undoes
// it.
func (p *picker) cachedSlacks(c *instanceCache, i int, lz lazySeparator, w []float64) {
	if lz != nil {
		defer lz.pin(i, w)()
	}
	p.cacheDots(c, i, lz, w, c.next)
	for b := range c.batches {
		if b == c.next {
			continue
		}
		for _, k := range c.batches[b].cons {
			if p.slack[k.group] == 0 {
				p.set = append(p.set, k.group)
			}
			p.slack[k.group] = math.Max(p.slack[k.group], k.b-p.dots[p.off[b]+int(k.vec)])
		}
	}
}

func (p *picker) clearSlacks() {
	for _, g := range p.set {
		p.slack[g] = 0
	}
	p.set = p.set[:0]
}

// best appends to dst, in group order, every group of instance i's cache c
// with its most violated constraint at w (ties keep the oldest, so the
// choice depends on nothing but w and the cache); lz is nil unless the
// cache keeps labelings.
func (p *picker) best(c *instanceCache, i int, lz lazySeparator, w []float64, dst []pick) []pick {
	if lz != nil {
		defer lz.pin(i, w)()
	}
	p.cacheDots(c, i, lz, w, -1)
	for age := range c.batches {
		b := (c.next + age) % cacheSize // oldest first
		bt := &c.batches[b]
		for _, k := range bt.cons {
			g, v := k.group, k.b-p.dots[p.off[b]+int(k.vec)]
			q := pick{group: g, b: k.b, v: v, loss: k.loss}
			if lz != nil {
				q.d = &bt.dirs[k.vec]
			} else {
				q.a = &bt.vecs[k.vec]
			}
			switch s := p.slot[g]; {
			case s == 0:
				dst = append(dst, q)
				p.slot[g] = int32(len(dst))
			case !(v <= dst[s-1].v):
				dst[s-1] = q
			}
		}
	}
	for _, q := range dst {
		p.slot[q.group] = 0
	}
	slices.SortFunc(dst, func(a, b pick) int { return a.group - b.group })
	return dst
}

// jointBuilder sums the violated picks of every instance into one joint
// constraint (Σ a, Σ b), in a dense scratch vector. The indices it touched
// are marked in a two-level bitset (a bit per index, and a bit per word of
// those), so that they come out in increasing order in time proportional
// to their number plus dim/4096: no sort, and no pass over every index.
type jointBuilder struct {
	acc       []float64
	touched   []int32
	words     []uint64 // bit i%64 of words[i/64]: index i touched
	summary   []uint64 // bit w%64 of summary[w/64]: words[w] ≠ 0
	b         float64
	violation float64 // Σ over the contributing groups of b_g − w·a_g
	count     int     // the contributing groups
	lossSum   float64 // Σ of their proposals' Loss
}

func newJointBuilder(dim int) *jointBuilder {
	nw := (dim + 63) / 64
	return &jointBuilder{acc: make([]float64, dim), words: make([]uint64, nw), summary: make([]uint64, (nw+63)/64)}
}

func (j *jointBuilder) reset() {
	for _, i := range j.touched {
		j.acc[i], j.words[i>>6], j.summary[i>>12] = 0, 0, 0
	}
	j.touched, j.b, j.violation, j.count, j.lossSum = j.touched[:0], 0, 0, 0, 0
}

// mark records a touch of index i, reporting whether it is the first.
func (j *jointBuilder) mark(i int32) bool {
	w, bit := i>>6, uint64(1)<<(i&63)
	if j.words[w]&bit != 0 {
		return false
	}
	j.words[w] |= bit
	j.summary[w>>6] |= 1 << (w & 63)
	return true
}

// sum builds the joint constraint from picks[i], instance i's picks, adding
// the violated ones in instance order, then group order: one fixed order of
// floating-point additions, however the picks were computed. Picks of
// labelings (whose a is nil) have their directions summed per instance in
// contrib[i].
func (j *jointBuilder) sum(picks [][]pick, contrib []packedVec) {
	j.reset()
	for i, ps := range picks {
		for _, q := range ps {
			if !(q.v > 0) {
				continue
			}
			if q.a != nil {
				j.add(q.a)
			}
			j.b += q.b
			j.violation += q.v
			j.count++
			j.lossSum += q.loss
		}
		if contrib != nil {
			j.add(&contrib[i])
		}
	}
}

// addAt adds x at index i, marking it if it is the first touch.
func (j *jointBuilder) addAt(i int32, x float64) {
	if j.mark(i) {
		j.touched = append(j.touched, i)
	}
	j.acc[i] += x
}

// add adds a to the sum, marking the indices it touches for the first time.
func (j *jointBuilder) add(a *packedVec) {
	switch {
	case a.i8 != nil:
		addMarked(j, a.gaps, a.i8)
	case a.i16 != nil:
		addMarked(j, a.gaps, a.i16)
	case a.f32 != nil:
		addMarked(j, a.gaps, a.f32)
	default:
		addMarked(j, a.gaps, a.f64)
	}
}

func addMarked[T packedValue](j *jointBuilder, gaps []uint16, vals []T) {
	i, pos := int32(0), 0
	for _, x := range vals {
		var g int32
		g, pos = nextGap(gaps, pos)
		i += g
		if j.mark(i) {
			j.touched = append(j.touched, i)
		}
		j.acc[i] += float64(x)
	}
}

// constraint returns the joint constraint built since the last reset.
func (j *jointBuilder) constraint() (packedVec, float64) {
	j.sortTouched()
	var a packedVec
	packDense(&a, j.acc, j.touched)
	return a, j.b
}

// sortTouched puts the touched indices in increasing order, reading them
// off the bitset.
func (j *jointBuilder) sortTouched() {
	j.touched = j.touched[:0]
	for si, sw := range j.summary {
		for sw != 0 {
			w := si<<6 | bits.TrailingZeros64(sw)
			sw &= sw - 1
			for word := j.words[w]; word != 0; word &= word - 1 {
				j.touched = append(j.touched, int32(w<<6|bits.TrailingZeros64(word)))
			}
		}
	}
}
