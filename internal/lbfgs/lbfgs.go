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
// that the fused passes keep (the four lanes of gonum's amd64 assembly,
// or index order where gonum runs its pure Go, as the passes then do),
// that is, whether the iterates are gonum's bit for bit. Where it is false
// they differ in rounding.
func SameOrderAsGonum() bool {
	x := []float64{1, 1e16, 1, -1e16} // 0 summed in order, 2 in lanes
	ones := []float64{1, 1, 1, 1}
	return floats.Dot(x, ones) == axpyDot(slices.Clone(x), 0, ones, ones)
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
