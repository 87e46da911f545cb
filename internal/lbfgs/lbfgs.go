// Package lbfgs minimises a smooth function by limited-memory BFGS with
// gonum's Moré–Thuente line search. Its iterates are bit for bit those of
// gonum's optimize.Minimize with optimize.LBFGS and optimize.MoreThuente
// (for finite values): every floating-point operation that decides an
// iterate is gonum's, in gonum's order, but the vector work of a major
// iteration is fused into 2m+1 passes over the weights (gonum makes about
// 40 for m = 6, copies included), nothing is copied between iterations and
// nothing is allocated after New. The caller drives the iterations and
// applies its own stopping rules between them.
package lbfgs

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"
)

// SameOrderAsGonum reports whether gonum's floats.Dot sums in the order
// that the fused passes keep (the four lanes of its amd64 assembly), that
// is, whether the iterates are gonum's bit for bit. Where it is false
// (gonum's pure-Go Dot, which sums in index order) they differ in rounding.
func SameOrderAsGonum() bool {
	x := []float64{1, 1e16, 1, -1e16} // 0 summed in order, 2 in lanes
	ones := []float64{1, 1, 1, 1}
	return floats.Dot(x, ones) == axpyDotGo(slices.Clone(x), 0, ones, ones)
}

// Func returns f(x) and writes ∇f(x) into grad; it must not keep x or grad.
// An error stops the minimiser, which returns it.
type Func func(x, grad []float64) (float64, error)

// ErrNonFinite reports a starting point whose objective or gradient is not
// finite (gonum's ErrFunc and ErrGrad).
var ErrNonFinite = errors.New("lbfgs: objective or gradient not finite at the starting point")

// Minimizer holds the state of one minimisation. The zero value is not
// usable: call New.
type Minimizer struct {
	f      Func
	mem    int
	ls     optimize.MoreThuente
	x, g   []float64 // the last major iterate and its gradient
	fx     float64
	xt, gt []float64 // the line search's trial point and its gradient
	dir    []float64
	s, y   [][]float64 // correction pairs, a ring of mem slots
	rho    []float64
	a      []float64
	newest int // slot of the newest pair; -1 before the first
	stored int // pairs stored, ≤ mem
	evals  int
}

// New returns a minimiser of f over dim variables keeping memory
// correction pairs (gonum's LBFGS.Store; memory ≥ 1).
func New(f Func, dim, memory int) *Minimizer {
	if memory < 1 || dim < 1 {
		panic(fmt.Sprintf("lbfgs: dimension %d and memory %d must be positive", dim, memory))
	}
	m := &Minimizer{f: f, mem: memory, newest: -1,
		x: make([]float64, dim), g: make([]float64, dim),
		xt: make([]float64, dim), gt: make([]float64, dim), dir: make([]float64, dim),
		s: make([][]float64, memory), y: make([][]float64, memory),
		rho: make([]float64, memory), a: make([]float64, memory)}
	for i := range memory {
		m.s[i], m.y[i] = make([]float64, dim), make([]float64, dim)
	}
	return m
}

// X is the last major iterate (the starting point after Start). It is
// overwritten by the next call to Next.
func (m *Minimizer) X() []float64 { return m.x }

// F is the objective at X.
func (m *Minimizer) F() float64 { return m.fx }

// Grad is the gradient at X, overwritten by the next call to Next.
func (m *Minimizer) Grad() []float64 { return m.g }

// Evaluations counts the calls of the objective so far.
func (m *Minimizer) Evaluations() int { return m.evals }

// Start evaluates the objective at x0, gonum's starting location, and
// checks that it is finite.
func (m *Minimizer) Start(x0 []float64) error {
	copy(m.x, x0)
	f, err := m.eval(m.x, m.g)
	if err != nil {
		return err
	}
	m.fx = f
	if math.IsInf(f, 1) || math.IsNaN(f) {
		return fmt.Errorf("%w: f = %v", ErrNonFinite, f)
	}
	for i, v := range m.g {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("%w: gradient[%d] = %v", ErrNonFinite, i, v)
		}
	}
	return nil
}

func (m *Minimizer) eval(x, g []float64) (float64, error) {
	m.evals++
	return m.f(x, g)
}

// Next performs one major iteration: a new direction and a line search
// along it, after which X, F and Grad are the accepted point. On an error
// (the objective's, or gonum's optimize.ErrNoProgress,
// ErrNonDescentDirection, ErrLinesearcherFailure, ErrLinesearcherBound) X,
// F and Grad stay the previous major iterate, which gonum would return.
func (m *Minimizer) Next() error {
	var step, proj float64
	var moved bool
	if m.newest < 0 {
		step, proj, moved = m.firstDirection()
	} else {
		step, proj, moved = m.nextDirection()
	}
	if proj >= 0 {
		return optimize.ErrNonDescentDirection
	}
	m.ls.Init(m.fx, proj, step)
	if !moved {
		return optimize.ErrNoProgress
	}
	for {
		f, err := m.eval(m.xt, m.gt)
		if err != nil {
			return err
		}
		op, next, err := m.ls.Iterate(f, floats.Dot(m.gt, m.dir))
		if err != nil {
			return err
		}
		if op == optimize.MajorIteration {
			m.x, m.xt = m.xt, m.x
			m.g, m.gt = m.gt, m.g
			m.fx = f
			return nil
		}
		if next != step {
			step = next
			if !trial(m.xt, m.x, step, m.dir) {
				return optimize.ErrNoProgress
			}
		}
	}
}

// firstDirection is gonum's InitDirection and the start of its line
// search: dir = −∇f, step 1/‖dir‖₂, the trial point x + step·dir.
func (m *Minimizer) firstDirection() (step, proj float64, moved bool) {
	for j, v := range m.g {
		m.dir[j] = -v
	}
	step = 1 / floats.Norm(m.dir, 2)
	proj = floats.Dot(m.g, m.dir)
	moved = trial(m.xt, m.x, step, m.dir)
	m.newest = m.mem - 1 // the first pair goes to slot 0
	return step, proj, moved
}

// nextDirection is gonum's NextDirection (the two-loop recursion of
// Nocedal and Wright, Algorithm 7.4) and the start of its line search, in
// 2k+1 passes for k stored pairs. The previous major iterate is in
// (xt, gt), where Next left it.
func (m *Minimizer) nextDirection() (step, proj float64, moved bool) {
	n := (m.newest + 1) % m.mem
	m.newest = n
	if m.stored < m.mem {
		m.stored++
	}
	k := m.stored
	sy, yy, sg := newPair(m.s[n], m.y[n], m.dir, m.x, m.xt, m.g, m.gt)
	m.rho[n] = 1 / sy
	gamma := sy / yy
	// gonum visits all mem slots; an empty one (s = y = 0, ρ = 0) leaves
	// dir as it is in the first loop and adds +0 to it in the second,
	// which turns −0 into +0: canon does that.
	canon := k < m.mem
	slot := func(i int) int { return (n - i + m.mem) % m.mem } // i-th newest
	// First loop, newest pair to oldest: a_i = ρ_i s_i·q, q −= a_i y_i.
	m.a[n] = m.rho[n] * sg
	for i := 1; i < k; i++ {
		prev, cur := slot(i-1), slot(i)
		m.a[cur] = m.rho[cur] * axpyDot(m.dir, -m.a[prev], m.y[prev], m.s[cur])
	}
	// The last step of the first loop, the scaling by γ and the first dot
	// of the second loop, oldest pair first: β_i = ρ_i y_i·r.
	old := slot(k - 1)
	beta := m.rho[old] * axpyScaleDot(m.dir, -m.a[old], m.y[old], gamma, canon, m.y[old])
	// Second loop, oldest to newest: r += (a_i − β_i) s_i.
	for i := k - 1; i > 0; i-- {
		cur, next := slot(i), slot(i-1)
		beta = m.rho[next] * axpyDot(m.dir, m.a[cur]-beta, m.s[cur], m.y[next])
	}
	proj, moved = lastPass(m.dir, m.a[n]-beta, m.s[n], m.g, m.xt, m.x)
	return 1, proj, moved
}

// The passes below compute each dot product as gonum's DotUnitary does on
// amd64 (four partial sums by index mod 4, the tail added to the first,
// then (s0+s2)+(s1+s3)), and each update as its AxpyUnitary (α·v + d,
// rounded in that order), so that the fused passes give gonum's numbers.
// The float64 conversions forbid fused multiply-adds.

// newPairGo sets s = x − xp, y = g − gp, dir = g and returns s·y, y·y
// and s·g.
func newPairGo(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64) {
	n := len(x)
	s, y, dir, xp, g, gp = s[:n], y[:n], dir[:n], xp[:n], g[:n], gp[:n]
	var sy0, sy1, sy2, sy3, yy0, yy1, yy2, yy3, sg0, sg1, sg2, sg3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		s0, s1, s2, s3 := x[j]-xp[j], x[j+1]-xp[j+1], x[j+2]-xp[j+2], x[j+3]-xp[j+3]
		y0, y1, y2, y3 := g[j]-gp[j], g[j+1]-gp[j+1], g[j+2]-gp[j+2], g[j+3]-gp[j+3]
		s[j], s[j+1], s[j+2], s[j+3] = s0, s1, s2, s3
		y[j], y[j+1], y[j+2], y[j+3] = y0, y1, y2, y3
		dir[j], dir[j+1], dir[j+2], dir[j+3] = g[j], g[j+1], g[j+2], g[j+3]
		sy0 += float64(s0 * y0)
		sy1 += float64(s1 * y1)
		sy2 += float64(s2 * y2)
		sy3 += float64(s3 * y3)
		yy0 += float64(y0 * y0)
		yy1 += float64(y1 * y1)
		yy2 += float64(y2 * y2)
		yy3 += float64(y3 * y3)
		sg0 += float64(s0 * g[j])
		sg1 += float64(s1 * g[j+1])
		sg2 += float64(s2 * g[j+2])
		sg3 += float64(s3 * g[j+3])
	}
	for ; j < n; j++ {
		sj, yj := x[j]-xp[j], g[j]-gp[j]
		s[j], y[j], dir[j] = sj, yj, g[j]
		sy0 += float64(sj * yj)
		yy0 += float64(yj * yj)
		sg0 += float64(sj * g[j])
	}
	return (sy0 + sy2) + (sy1 + sy3), (yy0 + yy2) + (yy1 + yy3), (sg0 + sg2) + (sg1 + sg3)
}

// axpyDotGo sets d += alpha·v and returns w·d: axpyDot where there is no
// assembly version.
func axpyDotGo(d []float64, alpha float64, v, w []float64) float64 {
	n := len(d)
	v, w = v[:n], w[:n]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		d0 := float64(alpha*v[j]) + d[j]
		d1 := float64(alpha*v[j+1]) + d[j+1]
		d2 := float64(alpha*v[j+2]) + d[j+2]
		d3 := float64(alpha*v[j+3]) + d[j+3]
		d[j], d[j+1], d[j+2], d[j+3] = d0, d1, d2, d3
		s0 += float64(w[j] * d0)
		s1 += float64(w[j+1] * d1)
		s2 += float64(w[j+2] * d2)
		s3 += float64(w[j+3] * d3)
	}
	for ; j < n; j++ {
		dj := float64(alpha*v[j]) + d[j]
		d[j] = dj
		s0 += float64(w[j] * dj)
	}
	return (s0 + s2) + (s1 + s3)
}

// axpyScaleDot sets d = gamma·(d + alpha·v), then adds +0 if canon, and
// returns w·d.
func axpyScaleDot(d []float64, alpha float64, v []float64, gamma float64, canon bool, w []float64) float64 {
	n := len(d)
	v, w = v[:n], w[:n]
	var zero float64 // +0, added where canon
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		d0 := gamma * (float64(alpha*v[j]) + d[j])
		d1 := gamma * (float64(alpha*v[j+1]) + d[j+1])
		d2 := gamma * (float64(alpha*v[j+2]) + d[j+2])
		d3 := gamma * (float64(alpha*v[j+3]) + d[j+3])
		if canon {
			d0, d1, d2, d3 = d0+zero, d1+zero, d2+zero, d3+zero
		}
		d[j], d[j+1], d[j+2], d[j+3] = d0, d1, d2, d3
		s0 += float64(w[j] * d0)
		s1 += float64(w[j+1] * d1)
		s2 += float64(w[j+2] * d2)
		s3 += float64(w[j+3] * d3)
	}
	for ; j < n; j++ {
		dj := gamma * (float64(alpha*v[j]) + d[j])
		if canon {
			dj += zero
		}
		d[j] = dj
		s0 += float64(w[j] * dj)
	}
	return (s0 + s2) + (s1 + s3)
}

// lastPassGo ends the second loop and starts the line search at step 1: it
// sets d = −(d + alpha·v) and xt = d + x, and returns g·d and whether xt
// differs from x.
func lastPassGo(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool) {
	n := len(d)
	v, g, xt, x = v[:n], g[:n], xt[:n], x[:n]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		d0 := -(float64(alpha*v[j]) + d[j])
		d1 := -(float64(alpha*v[j+1]) + d[j+1])
		d2 := -(float64(alpha*v[j+2]) + d[j+2])
		d3 := -(float64(alpha*v[j+3]) + d[j+3])
		d[j], d[j+1], d[j+2], d[j+3] = d0, d1, d2, d3
		s0 += float64(g[j] * d0)
		s1 += float64(g[j+1] * d1)
		s2 += float64(g[j+2] * d2)
		s3 += float64(g[j+3] * d3)
		t0, t1, t2, t3 := d0+x[j], d1+x[j+1], d2+x[j+2], d3+x[j+3]
		xt[j], xt[j+1], xt[j+2], xt[j+3] = t0, t1, t2, t3
		moved = moved || t0 != x[j] || t1 != x[j+1] || t2 != x[j+2] || t3 != x[j+3]
	}
	for ; j < n; j++ {
		dj := -(float64(alpha*v[j]) + d[j])
		d[j] = dj
		s0 += float64(g[j] * dj)
		xt[j] = dj + x[j]
		moved = moved || xt[j] != x[j]
	}
	return (s0 + s2) + (s1 + s3), moved
}

// trial sets xt = x + step·d (gonum's AddScaledTo) and reports whether xt
// differs from x.
func trial(xt, x []float64, step float64, d []float64) (moved bool) {
	n := len(xt)
	x, d = x[:n], d[:n]
	for j := range xt {
		v := float64(step*d[j]) + x[j]
		xt[j] = v
		moved = moved || v != x[j]
	}
	return moved
}
