package ilp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// intTol is how far from 0 or 1 a part's LP value may be and still count as
// integral; gonum's Simplex leaves round-off of order 1e-15 on vertices.
const intTol = 1e-6

// simplexTol is the reduced-cost tolerance handed to lp.Simplex.
const simplexTol = 1e-10

// DefaultMaxNodes bounds the branch-and-bound tree when Options.MaxNodes is 0.
const DefaultMaxNodes = 10000

// ErrNodeLimit is returned (wrapped) when branch and bound would solve more
// relaxations than Options.MaxNodes.
var ErrNodeLimit = errors.New("ilp: branch-and-bound node limit reached")

// Options tune the solver. The zero value is ready to use.
type Options struct {
	// MaxNodes bounds the number of LP relaxations branch and bound may
	// solve; 0 means DefaultMaxNodes.
	MaxNodes int
}

// Stats describes one solve: how large the root relaxation was and how much
// branching it took.
type Stats struct {
	// Rows and Cols are the shape of the root LP's equality constraint
	// matrix after the redundant rows are dropped.
	Rows, Cols int
	// LPs is the number of relaxations solved (branch-and-bound nodes,
	// infeasible ones included); 1 when the root relaxation is integral.
	LPs int
	// Fractional is the number of relaxations whose optimum was fractional,
	// so that they were branched on; RootFractional says whether the first
	// one was.
	Fractional     int
	RootFractional bool
}

// relaxation is the LP relaxation of one structure's argmax over "parts"
// (the 0/1 indicators of the objective: label pairs of a chain, arcs of a
// tree), restricted to the parts not banned.
type relaxation interface {
	// parts returns the number of parts.
	parts() int
	// fixOne bans every part that cannot be on together with p (the other
	// label pairs of p's position, the other heads of p's word), so that
	// p's group constraint forces p to 1.
	fixOne(banned []bool, p int)
	// build returns the standard-form LP (minimise c·x, A x = b, x ≥ 0)
	// over the parts not banned, a feasible basis of it, and col, the LP
	// column of each part (−1 if absent); ok is false when no structure
	// avoids the banned parts.
	build(banned []bool) (p program, ok bool)
}

// program is a standard-form LP with a known feasible basis.
type program struct {
	c     []float64
	a     *mat.Dense
	b     []float64
	basis []int
	col   []int // part → column, −1 when the part is not in the LP
	score []float64
}

// solution is an integral optimum: the parts that are on and its value.
type solution struct {
	on    []bool
	value float64
}

// solve runs depth-first branch and bound over r: every node solves the
// relaxation with some parts banned; a fractional optimum branches on its
// most fractional part, first fixing it to 1, then banning it. A node
// whose bound does not beat the incumbent is pruned, so among ties the
// first integral optimum found is kept. ok is false if no structure is
// feasible at all. banned, if not nil, bans parts from the start.
func solve(r relaxation, banned []bool, opt Options) (best solution, st Stats, ok bool, err error) {
	maxNodes := opt.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	incumbent := math.Inf(-1)
	if banned == nil {
		banned = make([]bool, r.parts())
	}
	stack := [][]bool{banned}
	for len(stack) > 0 {
		banned := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if st.LPs == maxNodes {
			return best, st, false, fmt.Errorf("%w (%d relaxations)", ErrNodeLimit, maxNodes)
		}
		p, feasible := r.build(banned)
		st.LPs++
		if st.LPs == 1 && feasible {
			st.Rows, st.Cols = p.a.Dims()
		}
		if !feasible {
			continue
		}
		x, value, err := p.run()
		if err != nil {
			return best, st, false, err
		}
		if ok && value <= incumbent+1e-9*max(1, math.Abs(incumbent)) {
			continue // cannot beat the incumbent
		}
		j := mostFractional(x)
		if j < 0 {
			best = solution{on: rounded(x), value: value}
			incumbent, ok = value, true
			continue
		}
		st.Fractional++
		if st.LPs == 1 {
			st.RootFractional = true
		}
		zero := append([]bool(nil), banned...)
		zero[j] = true
		one := append([]bool(nil), banned...)
		r.fixOne(one, j)
		stack = append(stack, zero, one) // the fix-to-1 child first
	}
	return best, st, ok, nil
}

// run solves the LP and returns every part's value (0 for parts not in it)
// and the objective Σ score·x as a maximisation.
func (p program) run() (x []float64, value float64, err error) {
	_, sol, err := lp.Simplex(p.c, p.a, p.b, simplexTol, p.basis)
	if err != nil {
		return nil, 0, fmt.Errorf("ilp: simplex: %w", err)
	}
	x = make([]float64, len(p.col))
	for part, j := range p.col {
		if j >= 0 {
			x[part] = sol[j]
			value += p.score[part] * sol[j]
		}
	}
	return x, value, nil
}

// mostFractional returns the part whose value is farthest from 0 and 1
// (the lowest such part among ties), or −1 if every value is integral.
func mostFractional(x []float64) int {
	best, bestDist := -1, intTol
	for i, v := range x {
		if d := min(math.Abs(v), math.Abs(1-v)); d > bestDist {
			best, bestDist = i, d
		}
	}
	return best
}

// rounded returns which parts are on in an integral x.
func rounded(x []float64) []bool {
	on := make([]bool, len(x))
	for i, v := range x {
		on[i] = v > 0.5
	}
	return on
}
