package mil

import (
	"fmt"
	"math"

	"github.com/maxmargin/repro/structpred"
)

// Bag is one labelled bag: its instances (feature vectors over D features,
// indices strictly increasing) and its label, −1 or +1.
type Bag struct {
	Instances []structpred.SparseVec
	Label     int
}

// Model is the MIL model over a fixed set of training bags. Its weights are
// w = (v, b): v over the D instance features, b the bias (w[D]). It keeps
// scratch buffers and is not safe for concurrent use; Fork gives another
// goroutine its own.
type Model struct {
	bags []Bag // read-only after New, shared by forks
	dim  int   // D

	f []float64 // scratch: the instance scores of the bag at hand
}

// New returns a model over bags whose instances have dim features. Every
// bag needs at least one instance.
func New(bags []Bag, dim int) (*Model, error) {
	if dim < 0 || dim >= math.MaxInt32 {
		return nil, fmt.Errorf("mil model with %d features", dim)
	}
	for i, b := range bags {
		if b.Label != -1 && b.Label != 1 {
			return nil, fmt.Errorf("bag %d: label %d, want −1 or +1", i, b.Label)
		}
		if len(b.Instances) == 0 {
			return nil, fmt.Errorf("bag %d: no instances", i)
		}
		for h, x := range b.Instances {
			if err := x.Check(dim); err != nil {
				return nil, fmt.Errorf("bag %d instance %d: %w", i, h, err)
			}
		}
	}
	return &Model{bags: bags, dim: dim}, nil
}

// Fork returns a model over the same bags with scratch of its own.
func (m *Model) Fork() structpred.Model[int] {
	f := *m
	f.f = nil
	return &f
}

// Len returns the number of training bags.
func (m *Model) Len() int { return len(m.bags) }

// Dim returns D + 1: the instance weights and the bias.
func (m *Model) Dim() int { return m.dim + 1 }

// Truth returns bag i's label.
func (m *Model) Truth(i int) int { return m.bags[i].Label }

// Loss returns the 0/1 loss of label y on bag i.
func (m *Model) Loss(i int, y int) float64 {
	if y == m.bags[i].Label {
		return 0
	}
	return 1
}

// InstanceScore returns w·ψ(x) = v·x + b (features outside [0, D) carry
// no weight).
func (m *Model) InstanceScore(x structpred.SparseVec, w []float64) float64 {
	s := w[m.dim]
	for e, j := range x.Idx {
		if j >= 0 && int(j) < m.dim {
			s += x.Val[e] * w[j]
		}
	}
	return s
}

// scores fills the scratch with the instance scores f_h of xs.
func (m *Model) scores(xs []structpred.SparseVec, w []float64) []float64 {
	if cap(m.f) < len(xs) {
		m.f = make([]float64, len(xs))
	}
	m.f = m.f[:len(xs)]
	for h, x := range xs {
		m.f[h] = m.InstanceScore(x, w)
	}
	return m.f
}

// PositiveScore returns the bag's score for +1 against −1's 0: (1/β) log
// ((1/H) Σ_h e^{β f_h}) at finite β, max_h f_h at β = +Inf.
func (m *Model) PositiveScore(xs []structpred.SparseVec, w []float64, beta float64) float64 {
	f := m.scores(xs, w)
	if math.IsInf(beta, 1) {
		return maxOf(f)
	}
	return (logSumExpScaled(f, beta) - math.Log(float64(len(f)))) / beta
}

// Predict returns +1 if PositiveScore > 0, else −1 (section 5's rule).
func (m *Model) Predict(xs []structpred.SparseVec, w []float64, beta float64) int {
	if m.PositiveScore(xs, w, beta) > 0 {
		return 1
	}
	return -1
}

// Accuracy returns the percentage of bags whose label Predict gets right
// (0 for none).
func (m *Model) Accuracy(bags []Bag, w []float64, beta float64) float64 {
	if len(bags) == 0 {
		return 0
	}
	right := 0
	for _, b := range bags {
		if m.Predict(b.Instances, w, beta) == b.Label {
			right++
		}
	}
	return 100 * float64(right) / float64(len(bags))
}

// Score returns bag i's score for y with the latent instance averaged out
// uniformly (the β → 0 view): the mean instance score for +1, 0 for −1.
// The latent trainer does not use it; it is the structpred.Model
// interface's, consistent with DeltaFeatures.
func (m *Model) Score(i int, w []float64, y int) float64 {
	if y != 1 {
		return 0
	}
	f := m.scores(m.bags[i].Instances, w)
	var s float64
	for _, v := range f {
		s += v
	}
	return s / float64(len(f))
}

// DeltaFeatures returns f(X_i, y_i) − f(X_i, y) with the latent instance
// averaged uniformly, as Score: ±(mean_h ψ(x_h)) when y ≠ y_i.
func (m *Model) DeltaFeatures(i int, y int) structpred.SparseVec {
	b := m.bags[i]
	if y == b.Label {
		return structpred.SparseVec{}
	}
	sign := 1.0 // y_i = +1: f(X, +1) − 0
	if b.Label == -1 {
		sign = -1
	}
	acc := make([]float64, m.dim+1)
	for _, x := range b.Instances {
		x.AddTo(acc[:m.dim], sign/float64(len(b.Instances)))
	}
	acc[m.dim] = sign
	var out structpred.SparseVec
	for j, v := range acc {
		if v != 0 {
			out.Idx, out.Val = append(out.Idx, int32(j)), append(out.Val, v)
		}
	}
	return out
}

// LatentLogLoss returns the latent ℓ_β of bag i (see the package doc) and
// adds its gradient Σ_h p(+1, h) ψ(x_h) − [y_i = +1] Σ_h q(h) ψ(x_h) into
// grad (nil: value only), p the loss-augmented posterior over (y, z) and
// q(h) ∝ e^{β f_h} (a trainers.LatentLogLinear).
func (m *Model) LatentLogLoss(i int, w []float64, beta, lossScale float64, grad []float64) float64 {
	b := m.bags[i]
	f := m.scores(b.Instances, w)
	lossPos, lossNeg := 0.0, lossScale // Δ(y_i, +1), Δ(y_i, −1)
	if b.Label == -1 {
		lossPos, lossNeg = lossScale, 0
	}
	// log Z = log(H·e^{β·lossNeg} + e^{β·lossPos}·Σ_h e^{β f_h}).
	lse := logSumExpScaled(f, beta) // log Σ_h e^{β f_h}
	logH := math.Log(float64(len(f)))
	aPos, aNeg := lse+beta*lossPos, logH+beta*lossNeg
	logZ := logAddExp(aPos, aNeg)
	truth := logH
	if b.Label == 1 {
		truth = lse
	}
	if grad != nil {
		// p(+1, h) = e^{β(f_h + lossPos) − log Z} = e^{aPos − log Z}·q(h).
		coef := math.Exp(aPos - logZ)
		if b.Label == 1 {
			coef-- // minus the truth's q(h)
		}
		if coef != 0 {
			for h, x := range b.Instances {
				c := coef * math.Exp(beta*f[h]-lse)
				x.AddTo(grad[:m.dim], c)
				grad[m.dim] += c
			}
		}
	}
	return (logZ - truth) / beta
}

// LatentHinge returns the β → ∞ limit of LatentLogLoss, the latent SSVM's
// (MI-SVM's) hinge max(λΔ(y_i, −1), max_h f_h + λΔ(y_i, +1)) − [y_i = +1]
// max_h f_h.
func (m *Model) LatentHinge(i int, w []float64, lossScale float64) float64 {
	b := m.bags[i]
	top := maxOf(m.scores(b.Instances, w))
	if b.Label == 1 {
		return max(lossScale, top) - top
	}
	return max(0, top+lossScale)
}

func maxOf(f []float64) float64 {
	top := math.Inf(-1)
	for _, v := range f {
		top = max(top, v)
	}
	return top
}

// logSumExpScaled returns log Σ_h e^{β f_h}.
func logSumExpScaled(f []float64, beta float64) float64 {
	top := beta * maxOf(f)
	var z float64
	for _, v := range f {
		z += math.Exp(beta*v - top)
	}
	return top + math.Log(z)
}

func logAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}
