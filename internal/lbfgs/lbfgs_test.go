package lbfgs

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/optimize/functions"
)

// iterate is one major iterate: its point and objective.
type iterate struct {
	x []float64
	f float64
}

// problem is a test function with its gradient and a starting point.
type problem struct {
	name string
	fn   func(x []float64) float64
	grad func(grad, x []float64)
	x0   []float64
}

type recorder struct{ its []iterate }

func (r *recorder) Init() error { return nil }

func (r *recorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op == optimize.MajorIteration {
		r.its = append(r.its, iterate{slices.Clone(loc.X), loc.F})
	}
	return nil
}

// gonumIterates runs gonum's L-BFGS with the Moré–Thuente line search with
// a cap of iters major iterations, the starting point counting as the
// first: its Recorder sees iters−1 of them (not the one that hits the cap).
func gonumIterates(p problem, memory, iters int) ([]iterate, error) {
	rec := &recorder{}
	_, err := optimize.Minimize(optimize.Problem{Func: p.fn, Grad: p.grad}, p.x0,
		&optimize.Settings{MajorIterations: iters, Converger: optimize.NeverTerminate{}, Recorder: rec},
		&optimize.LBFGS{Store: memory, GradStopThreshold: math.NaN(), Linesearcher: &optimize.MoreThuente{}})
	return rec.its, err
}

func ownIterates(p problem, memory, iters int) ([]iterate, error) {
	m := New(func(x, grad []float64) (float64, error) {
		p.grad(grad, x)
		return p.fn(x), nil
	}, len(p.x0), memory)
	if err := m.Start(p.x0); err != nil {
		return nil, err
	}
	its := []iterate{{slices.Clone(m.X()), m.F()}}
	for len(its) < iters-1 {
		if err := m.Next(); err != nil {
			return its, err
		}
		its = append(its, iterate{slices.Clone(m.X()), m.F()})
	}
	return its, nil
}

// logistic is an L2-regularised logistic regression on sparse random data
// with some features that never fire (their gradient is exactly 0, which
// makes the direction's zeros signed), dim not a multiple of 4.
func logistic(dim, n int, seed uint64) problem {
	rng := rand.New(rand.NewPCG(seed, 1))
	type row struct {
		idx []int
		y   float64
	}
	rows := make([]row, n)
	for i := range rows {
		for j := range dim {
			if j%7 != 3 && rng.Float64() < 0.2 {
				rows[i].idx = append(rows[i].idx, j)
			}
		}
		rows[i].y = float64(rng.IntN(2))*2 - 1
	}
	margin := func(x []float64, r row) float64 {
		var m float64
		for _, j := range r.idx {
			m += x[j]
		}
		return r.y * m
	}
	const c = 3.0
	fn := func(x []float64) float64 {
		f := 0.0
		for _, v := range x {
			f += 0.5 * v * v
		}
		for _, r := range rows {
			f += c * math.Log1p(math.Exp(-margin(x, r)))
		}
		return f
	}
	grad := func(g, x []float64) {
		copy(g, x)
		for _, r := range rows {
			p := -c * r.y / (1 + math.Exp(margin(x, r)))
			for _, j := range r.idx {
				g[j] += p
			}
		}
	}
	return problem{fmt.Sprintf("logistic-%d", dim), fn, grad, make([]float64, dim)}
}

func problems() []problem {
	fromGonum := func(name string, f interface {
		Func([]float64) float64
		Grad(grad, x []float64)
	}, x0 []float64) problem {
		return problem{name, f.Func, f.Grad, x0}
	}
	return []problem{
		fromGonum("ExtendedRosenbrock-10", functions.ExtendedRosenbrock{}, []float64{-1.2, 1, -1.2, 1, -1.2, 1, -1.2, 1, -1.2, 1}),
		fromGonum("ExtendedRosenbrock-7", functions.ExtendedRosenbrock{}, []float64{-1.2, 1, -1.2, 1, -1.2, 1, 0.5}),
		fromGonum("Trigonometric-9", functions.Trigonometric{}, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}),
		fromGonum("Watson-6", functions.Watson{}, make([]float64, 6)),
		fromGonum("PenaltyI-11", functions.PenaltyI{}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
		fromGonum("Wood", functions.Wood{}, []float64{-3, -1, -3, -1}),
		fromGonum("BrownBadlyScaled", functions.BrownBadlyScaled{}, []float64{1, 1}),
		logistic(103, 40, 1),
		logistic(64, 200, 2),
	}
}

func skipUnlessGonumLanes(t *testing.T) {
	if !SameOrderAsGonum() {
		t.Skip("gonum's Dot sums in another order on this platform or build")
	}
}

// Every major iterate and the way the run ends are gonum's, bit for bit.
func TestIteratesAreGonums(t *testing.T) {
	skipUnlessGonumLanes(t)
	for _, p := range problems() {
		for _, memory := range []int{1, 3, 6, 15} {
			t.Run(fmt.Sprintf("%s/m=%d", p.name, memory), func(t *testing.T) {
				const iters = 150
				want, werr := gonumIterates(p, memory, iters)
				got, gerr := ownIterates(p, memory, iters)
				if len(got) != len(want) {
					t.Fatalf("%d iterates (%v), gonum %d (%v)", len(got), gerr, len(want), werr)
				}
				if (werr == nil) != (gerr == nil) || werr != nil && !errors.Is(werr, gerr) {
					t.Errorf("ended with %v, gonum with %v", gerr, werr)
				}
				for k := range want {
					if math.Float64bits(got[k].f) != math.Float64bits(want[k].f) {
						t.Fatalf("iterate %d: f = %v, gonum %v", k, got[k].f, want[k].f)
					}
					for j := range want[k].x {
						if math.Float64bits(got[k].x[j]) != math.Float64bits(want[k].x[j]) {
							t.Fatalf("iterate %d: x[%d] = %v, gonum %v", k, j, got[k].x[j], want[k].x[j])
						}
					}
				}
			})
		}
	}
}

// The minimiser reaches a stationary point of a strongly convex function.
func TestReachesTheMinimum(t *testing.T) {
	p := logistic(103, 40, 3)
	m := New(func(x, g []float64) (float64, error) { p.grad(g, x); return p.fn(x), nil }, 103, 6)
	if err := m.Start(p.x0); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if err := m.Next(); err != nil {
			break // the line search cannot improve on a point at the minimum
		}
	}
	for j, g := range m.Grad() {
		if math.Abs(g) > 1e-6 {
			t.Fatalf("gradient[%d] = %v at the end", j, g)
		}
	}
}

// An objective's error stops the run and comes back unchanged, with X at
// the last major iterate.
func TestObjectiveErrorStops(t *testing.T) {
	p := logistic(20, 30, 4)
	boom := errors.New("boom")
	calls := 0
	m := New(func(x, g []float64) (float64, error) {
		calls++
		if calls == 6 {
			return 0, boom
		}
		p.grad(g, x)
		return p.fn(x), nil
	}, 20, 6)
	if err := m.Start(p.x0); err != nil {
		t.Fatal(err)
	}
	var err error
	var last []float64
	for err == nil {
		last = slices.Clone(m.X())
		err = m.Next()
	}
	if !errors.Is(err, boom) || !slices.Equal(last, m.X()) || m.Evaluations() != 6 {
		t.Errorf("error %v after %d evaluations, X kept %v", err, m.Evaluations(), slices.Equal(last, m.X()))
	}
	if err := New(func(x, g []float64) (float64, error) { return math.NaN(), nil }, 3, 2).Start(make([]float64, 3)); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN at the start: %v", err)
	}
}
