package datasets

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/maxmargin/repro/structpred"
)

// SynthSpec is one of Pletscher, Ong & Buhmann's (2010, section 8.1)
// synthetic multiclass problems: class c is drawn from a Gaussian with mean
// Means[c] and covariance Var·I, and confusing true class g with predicted
// class y costs Cost[g·K+y] (row-major K×K, zero diagonal).
type SynthSpec struct {
	Name  string
	Means [][]float64
	// Var is the variance of every coordinate: the paper's covariance
	// "0.25I" is Var 0.25, standard deviation 0.5.
	Var float64
	// Cost is the K×K cost matrix, row-major: the true class's row.
	Cost []float64
}

// Pletscher et al.'s training and test sizes per class (section 8.1).
const (
	SynthTrainPerClass = 2000
	SynthTestPerClass  = 10000
)

// SynthNames lists the generated problems of section 8.1, in the paper's
// order.
func SynthNames() []string { return []string{"synth1", "synth2", "synth3"} }

// Synth returns the spec of "synth1", "synth2" or "synth3" as section 8.1
// describes them:
//
//   - Synth1: "three classes. Each class is sampled from a Gaussian with
//     means at 0, 1 and 2 and variance 1" (one dimension, 0/1 cost);
//   - Synth2: "three classes … means at (0, 0), (1, 0.1) and (1, −0.1),
//     each with covariance 0.25I … accounting only 0.1 for a confusion
//     between class 2 and 3, and 1 otherwise";
//   - Synth3: "four Gaussians. Two of which have means (0, 0) and (1, 0),
//     the remaining two … (0.5, 0.4) and (0.5, 0.6). All classes have a
//     covariance of I … we only account an error of 0.1 when confusing
//     them" (the last two, either way round).
//
// The classes are numbered from 0 in the paper's order (its class 2 and 3
// are 1 and 2 here). The cost is symmetric.
func Synth(name string) (SynthSpec, error) {
	switch name {
	case "synth1":
		return SynthSpec{Name: name, Means: [][]float64{{0}, {1}, {2}}, Var: 1, Cost: zeroOneCost(3)}, nil
	case "synth2":
		c := zeroOneCost(3)
		c[1*3+2], c[2*3+1] = 0.1, 0.1
		return SynthSpec{Name: name, Means: [][]float64{{0, 0}, {1, 0.1}, {1, -0.1}}, Var: 0.25, Cost: c}, nil
	case "synth3":
		c := zeroOneCost(4)
		c[2*4+3], c[3*4+2] = 0.1, 0.1
		return SynthSpec{Name: name, Means: [][]float64{{0, 0}, {1, 0}, {0.5, 0.4}, {0.5, 0.6}}, Var: 1, Cost: c}, nil
	}
	return SynthSpec{}, fmt.Errorf("unknown synthetic multiclass problem %q (known: %v)", name, SynthNames())
}

func zeroOneCost(k int) []float64 {
	c := make([]float64, k*k)
	for g := range k {
		for y := range k {
			if g != y {
				c[g*k+y] = 1
			}
		}
	}
	return c
}

// Classes returns K.
func (s SynthSpec) Classes() int { return len(s.Means) }

// Draw returns perClass points of every class, items alternating between
// the classes (item i has class i mod K, so any prefix is balanced), dense,
// with a constant last coordinate of 1 when bias is set (the paper's feature
// map δ_k(y)·x has no separate bias, and without one a linear multiclass
// model cannot tell Synth1's three classes on a line apart: bias adds it as
// a feature). part names the draw ("train", "test", …): the same (seed,
// part) gives the same points, and different parts independent ones.
func (s SynthSpec) Draw(perClass int, seed uint64, part string, bias bool) (*Vectors, error) {
	k := len(s.Means)
	switch {
	case k == 0:
		return nil, fmt.Errorf("%s: no classes", s.Name)
	case !(s.Var >= 0) || math.IsInf(s.Var, 0):
		return nil, fmt.Errorf("%s: variance %v", s.Name, s.Var)
	case perClass < 0:
		return nil, fmt.Errorf("%s: %d points per class", s.Name, perClass)
	case len(s.Cost) != k*k:
		return nil, fmt.Errorf("%s: cost matrix has %d entries, want %d", s.Name, len(s.Cost), k*k)
	}
	d := len(s.Means[0])
	for c, m := range s.Means {
		if len(m) != d {
			return nil, fmt.Errorf("%s: mean %d has %d coordinates, mean 0 has %d", s.Name, c, len(m), d)
		}
	}
	h := fnv.New64a()
	h.Write([]byte(s.Name + "\x00" + part))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	sd := math.Sqrt(s.Var)
	dim := d
	if bias {
		dim++
	}
	out := &Vectors{Name: s.Name + "-" + part, Dim: dim, Items: make([]Vector, k*perClass)}
	for i := range out.Items {
		c := i % k
		x := structpred.SparseVec{Idx: make([]int32, dim), Val: make([]float64, dim)}
		for j := range dim {
			x.Idx[j] = int32(j)
		}
		for j := range d {
			x.Val[j] = s.Means[c][j] + sd*rng.NormFloat64()
		}
		if bias {
			x.Val[d] = 1
		}
		out.Items[i] = Vector{Label: float64(c), X: x}
	}
	return out, nil
}

// BayesClass returns the class minimising the expected cost at x (the
// first d = len(Means[0]) coordinates of x.Val, a dense vector) under equal
// class priors, and the posterior's argmax when zeroOne is set: the
// optimal classifiers a trained one is compared with (they need not be
// linear, but with a shared isotropic covariance the posterior argmax is).
func (s SynthSpec) BayesClass(x []float64, zeroOne bool) int {
	k := len(s.Means)
	logp := make([]float64, k)
	top := math.Inf(-1)
	for c, m := range s.Means {
		var q float64
		for j, mj := range m {
			q += (x[j] - mj) * (x[j] - mj)
		}
		logp[c] = -q / (2 * s.Var)
		top = max(top, logp[c])
	}
	for c := range logp {
		logp[c] = math.Exp(logp[c] - top)
	}
	best, bestV := 0, math.Inf(1)
	for y := range k {
		var v float64
		for g := range k {
			switch {
			case zeroOne && g != y:
				v += logp[g]
			case !zeroOne:
				v += logp[g] * s.Cost[g*k+y]
			}
		}
		if v < bestV {
			best, bestV = y, v
		}
	}
	return best
}

// SynthInstances is the number of random instantiations of each Synth
// problem the paper averages over (section 8.1); instantiation k (from 0)
// is drawn with seed k+1.
const SynthInstances = 5

// loadSynth generates the Synth problem name as a corpus of
// [SynthInstances] instantiations, each its training draw then its test
// draw (section 8.1's sizes), without a bias coordinate (the multiclass
// task adds its own); the cost matrix is the generator's.
func loadSynth(name string) (*Loaded, error) {
	spec, err := Synth(name)
	if err != nil {
		return nil, err
	}
	var parts []*Vectors
	l := &Loaded{}
	for k := range SynthInstances {
		for _, p := range []struct {
			part    string
			n, code int
		}{{"train", SynthTrainPerClass, PartTrain}, {"test", SynthTestPerClass, PartTest}} {
			v, err := spec.Draw(p.n, uint64(k+1), p.part, false)
			if err != nil {
				return nil, err
			}
			v.Name = fmt.Sprintf("%s-%d-%s", name, k+1, p.part)
			parts = append(parts, v)
			for range v.Items {
				l.Parts, l.Instances = append(l.Parts, p.code), append(l.Instances, k)
			}
		}
	}
	classes := make([]float64, spec.Classes())
	for c := range classes {
		classes[c] = float64(c)
	}
	c, xs, err := VectorCorpus(name, parts, classes)
	if err != nil {
		return nil, err
	}
	l.Corpus, l.Vectors = c, xs
	k := spec.Classes()
	for g := range k {
		l.Cost = append(l.Cost, slices.Clone(spec.Cost[g*k:(g+1)*k]))
	}
	return l, nil
}

// InstanceSplit returns the split of instantiation k of a generated
// dataset (see [Loaded.Instances]): its training part, its test part, and
// its development part (empty: none is generated).
func InstanceSplit(parts, instances []int, k int) (split Split, dev []int, err error) {
	if len(parts) != len(instances) {
		return Split{}, nil, fmt.Errorf("%d parts for %d instance ids", len(parts), len(instances))
	}
	var idx, sub []int
	for i, in := range instances {
		if in == k {
			idx, sub = append(idx, i), append(sub, parts[i])
		}
	}
	if len(idx) == 0 {
		return Split{}, nil, fmt.Errorf("no instantiation %d", k)
	}
	s, d, err := PartSplit(sub)
	if err != nil {
		return Split{}, nil, fmt.Errorf("instantiation %d: %w", k, err)
	}
	pick := func(ps []int) []int {
		out := make([]int, len(ps))
		for j, p := range ps {
			out[j] = idx[p]
		}
		return out
	}
	if len(d) > 0 {
		dev = pick(d)
	}
	return Split{Index: k, Train: pick(s.Train), Test: pick(s.Test)}, dev, nil
}
