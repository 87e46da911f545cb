package datasets

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// MILSpec is Pletscher, Ong & Buhmann's (2010, section 8.3) synthetic
// multiple-instance problem: "A positive bag consists of p positive
// instances and 50 − p negative (0 < p ≤ 50), a negative bag contains 50
// negative instances … the positive instances are Gaussian distributed with
// mean 0.6 whereas the negative instances are Gaussian distributed with
// mean 0, the variance for both classes is 1." Instances are one
// dimensional.
type MILSpec struct {
	BagSize   int     // instances per bag (50)
	Positives int     // p: positive instances in a positive bag
	PosMean   float64 // 0.6
	NegMean   float64 // 0
	Var       float64 // 1
}

// PletscherMIL returns section 8.3's spec with p positives per positive bag.
func PletscherMIL(p int) MILSpec {
	return MILSpec{BagSize: 50, Positives: p, PosMean: 0.6, NegMean: 0, Var: 1}
}

// MILBag is one generated bag: its one-feature instances, its label (+1 or
// −1) and which instances were drawn as positives (the latent truth no
// learner sees).
type MILBag struct {
	Instances []structpred.SparseVec
	Label     int
	Positive  []bool
}

// Draw returns n bags, alternately positive and negative (bag i is
// positive iff i is even, so any prefix is balanced), a positive bag's p
// positives at random places among its instances. part names the draw
// ("train", "test", …): the same (seed, part) gives the same bags and
// different parts independent ones.
func (s MILSpec) Draw(n int, seed uint64, part string) ([]MILBag, error) {
	switch {
	case s.BagSize < 1:
		return nil, fmt.Errorf("mil: bag size %d", s.BagSize)
	case s.Positives < 1 || s.Positives > s.BagSize:
		return nil, fmt.Errorf("mil: %d positives in bags of %d (want 0 < p ≤ %d)", s.Positives, s.BagSize, s.BagSize)
	case !(s.Var >= 0) || math.IsInf(s.Var, 0) || math.IsNaN(s.PosMean) || math.IsNaN(s.NegMean):
		return nil, fmt.Errorf("mil: means %v, %v and variance %v", s.PosMean, s.NegMean, s.Var)
	case n < 0:
		return nil, fmt.Errorf("mil: %d bags", n)
	}
	h := fnv.New64a()
	h.Write([]byte("mil\x00" + part))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	sd := math.Sqrt(s.Var)
	bags := make([]MILBag, n)
	for i := range bags {
		b := MILBag{Label: -1, Instances: make([]structpred.SparseVec, s.BagSize), Positive: make([]bool, s.BagSize)}
		if i%2 == 0 {
			b.Label = 1
			for _, h := range rng.Perm(s.BagSize)[:s.Positives] {
				b.Positive[h] = true
			}
		}
		for h := range b.Instances {
			mean := s.NegMean
			if b.Positive[h] {
				mean = s.PosMean
			}
			b.Instances[h] = structpred.SparseVec{Idx: []int32{0}, Val: []float64{mean + sd*rng.NormFloat64()}}
		}
		bags[i] = b
	}
	return bags, nil
}

// Pletscher et al.'s Figure 5 protocol as this repository fixes it
// (docs/pletscher.md): 10 random data sets, each 400 training bags and a
// separate test draw of 1,000, half of either positive.
const (
	MILInstances  = 10
	MILTrainBags  = 400
	MILTestBags   = 1000
	milNamePrefix = "mil-p"
)

// MILLabels are the class names of a multiple-instance corpus: class 0 is
// the negative bag label, class 1 the positive.
func MILLabels() []string { return []string{"-1", "+1"} }

// loadMIL generates mil-pP as a corpus of [MILInstances] instantiations,
// instantiation k (from 0) drawn with seed k+1: its [MILTrainBags]
// training bags, then its [MILTestBags] test bags.
func loadMIL(name string) (*Loaded, error) {
	p, err := strconv.Atoi(strings.TrimPrefix(name, milNamePrefix))
	if err != nil || !strings.HasPrefix(name, milNamePrefix) {
		return nil, fmt.Errorf("unknown multiple-instance problem %q (want mil-pP, P positives per positive bag)", name)
	}
	spec := PletscherMIL(p)
	l := &Loaded{Corpus: &Corpus{Name: name, Labels: MILLabels()}}
	for k := range MILInstances {
		for _, part := range []struct {
			name    string
			n, code int
		}{{"train", MILTrainBags, PartTrain}, {"test", MILTestBags, PartTest}} {
			bags, err := spec.Draw(part.n, uint64(k+1), part.name)
			if err != nil {
				return nil, err
			}
			for i, b := range bags {
				id := fmt.Sprintf("%s-%d-%s-%d", name, k+1, part.name, i)
				label := 0
				if b.Label == 1 {
					label = 1
				}
				l.Sequences = append(l.Sequences, structpred.Sequence{ID: id, Tokens: []string{id}, Labels: []int{label}})
				l.Bags = append(l.Bags, b.Instances)
				l.Parts, l.Instances = append(l.Parts, part.code), append(l.Instances, k)
			}
		}
	}
	return l, nil
}
