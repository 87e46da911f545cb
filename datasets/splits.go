package datasets

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
)

// Split is one train/test partition of the indices 0..n-1.
type Split struct {
	Index int   // split number k, as passed to [SplitAt]
	Train []int // sorted ascending
	Test  []int // sorted ascending
}

// RandomSplits returns count independent random splits of n items, each with
// round(trainFraction·n) training items (at least 1, leaving at least 1 for
// testing). Split k is [SplitAt](n, k, trainFraction, seed).
func RandomSplits(n, count int, trainFraction float64, seed uint64) ([]Split, error) {
	if count < 1 {
		return nil, fmt.Errorf("random splits: count = %d, need ≥ 1", count)
	}
	out := make([]Split, count)
	for k := range out {
		s, err := SplitAt(n, k, trainFraction, seed)
		if err != nil {
			return nil, fmt.Errorf("random splits: %w", err)
		}
		out[k] = s
	}
	return out, nil
}

// SplitAt returns split k of n items: a permutation drawn from PCG(seed, k),
// whose first round(trainFraction·n) items (clamped to [1, n-1]) form the
// training part. It depends on nothing but its arguments, so any split can be
// recomputed without the others.
func SplitAt(n, k int, trainFraction float64, seed uint64) (Split, error) {
	switch {
	case n < 2:
		return Split{}, fmt.Errorf("split: n = %d, need ≥ 2", n)
	case k < 0:
		return Split{}, fmt.Errorf("split: index k = %d, need ≥ 0", k)
	case !(trainFraction > 0 && trainFraction < 1): // also rejects NaN
		return Split{}, fmt.Errorf("split: train fraction %v, need 0 < f < 1", trainFraction)
	}
	perm := rand.New(rand.NewPCG(seed, uint64(k))).Perm(n)
	nTrain := min(max(int(math.Round(trainFraction*float64(n))), 1), n-1)
	train := slices.Clone(perm[:nTrain])
	test := slices.Clone(perm[nTrain:])
	slices.Sort(train)
	slices.Sort(test)
	return Split{Index: k, Train: train, Test: test}, nil
}

// HoldOut splits indices into a training and a validation part with about
// fraction of the items (rounded) in validation. The result depends only on
// the set of indices (not their order), fraction and seed; both parts are
// sorted. When len(indices) ≥ 2 both parts are non-empty, the validation size
// being clamped to [1, len-1] (a fraction ≤ 0 or NaN gives one item); with
// fewer items everything goes to train.
func HoldOut(indices []int, fraction float64, seed uint64) (train, validation []int) {
	items := slices.Clone(indices)
	slices.Sort(items)
	if len(items) < 2 {
		return items, []int{}
	}
	if math.IsNaN(fraction) {
		fraction = 0
	}
	fraction = min(max(fraction, 0), 1)
	nVal := min(max(int(math.Round(fraction*float64(len(items)))), 1), len(items)-1)
	// A fixed stream ("holdout") keeps this permutation apart from SplitAt's
	// even when the caller reuses the split seed.
	rng := rand.New(rand.NewPCG(seed, 0x686f6c646f7574))
	rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	validation = slices.Clone(items[:nVal])
	train = slices.Clone(items[nVal:])
	slices.Sort(train)
	slices.Sort(validation)
	return train, validation
}

// PerClassSplitAt returns split k of items labelled labels: perClass
// training items of every class, drawn from PCG(seed, k), the rest for
// testing (Tsochantaridis et al. 2004, Table 1: "2 and 4 training
// instances per class"). Every class needs more than perClass items, so
// that each has one left to test on. It depends on nothing but its
// arguments, as [SplitAt].
func PerClassSplitAt(labels []int, k, perClass int, seed uint64) (Split, error) {
	return perClassSplit(labels, k, perClass, seed, true)
}

// PerClassPartSplitAt returns split k of a corpus with fixed parts (see
// [Load]) whose items are labelled labels: perClass training items of
// every class drawn from the train part, as [PerClassSplitAt] draws them
// from a corpus of the train part alone, and the whole test part for
// testing (a random subset of MNIST's training images, scored on its test
// set); the development part is returned as [PartSplit] returns it.
// Every class needs at least perClass items in the train part.
func PerClassPartSplitAt(labels, parts []int, k, perClass int, seed uint64) (split Split, dev []int, err error) {
	if len(labels) != len(parts) {
		return Split{}, nil, fmt.Errorf("per-class split: %d labels for %d parts", len(labels), len(parts))
	}
	whole, dev, err := PartSplit(parts)
	if err != nil {
		return Split{}, nil, fmt.Errorf("per-class split: %w", err)
	}
	sub := make([]int, len(whole.Train))
	for j, i := range whole.Train {
		sub[j] = labels[i]
	}
	s, err := perClassSplit(sub, k, perClass, seed, false)
	if err != nil {
		return Split{}, nil, err
	}
	train := make([]int, len(s.Train))
	for j, i := range s.Train {
		train[j] = whole.Train[i] // whole.Train ascends, so train does
	}
	return Split{Index: k, Train: train, Test: whole.Test}, dev, nil
}

// perClassSplit draws perClass items of every class for training, the
// rest for testing; with needTest every class must keep one to test on.
func perClassSplit(labels []int, k, perClass int, seed uint64, needTest bool) (Split, error) {
	switch {
	case k < 0:
		return Split{}, fmt.Errorf("per-class split: index k = %d, need ≥ 0", k)
	case perClass < 1:
		return Split{}, fmt.Errorf("per-class split: %d training items per class, need ≥ 1", perClass)
	}
	byClass := map[int][]int{}
	for i, y := range labels {
		byClass[y] = append(byClass[y], i)
	}
	classes := slices.Sorted(maps.Keys(byClass))
	r := rand.New(rand.NewPCG(seed, uint64(k)))
	var s Split
	s.Index = k
	for _, y := range classes {
		items := byClass[y]
		switch {
		case needTest && len(items) <= perClass:
			return Split{}, fmt.Errorf("per-class split: class %d has %d items, need more than %d (one to test on)", y, len(items), perClass)
		case len(items) < perClass:
			return Split{}, fmt.Errorf("per-class split: class %d has %d training items, need %d", y, len(items), perClass)
		}
		perm := r.Perm(len(items))
		for j, p := range perm {
			if j < perClass {
				s.Train = append(s.Train, items[p])
			} else {
				s.Test = append(s.Test, items[p])
			}
		}
	}
	slices.Sort(s.Train)
	slices.Sort(s.Test)
	return s, nil
}
