package datasets

import (
	"fmt"
	"slices"
)

// FoldSplits returns the split that trains on fold trainFold and tests on
// every other fold, where folds[i] is the fold of item i. This is the OCR
// protocol of Taskar et al. (2003), followed by Crammer et al. (2005) and
// Pletscher et al. (2010): train on one fold (about 600 words) and test on
// the other nine (about 5,500). The reverse, large-training protocol is the
// same split with Train and Test swapped.
//
// Split.Index is trainFold. Folds must be non-negative, and both parts must
// be non-empty.
func FoldSplits(folds []int, trainFold int) (Split, error) {
	if err := checkFolds(folds); err != nil {
		return Split{}, err
	}
	if trainFold < 0 {
		return Split{}, fmt.Errorf("fold split: train fold %d, need ≥ 0", trainFold)
	}
	s := Split{Index: trainFold, Train: []int{}, Test: []int{}}
	for i, f := range folds {
		if f == trainFold {
			s.Train = append(s.Train, i)
		} else {
			s.Test = append(s.Test, i)
		}
	}
	switch {
	case len(s.Train) == 0:
		return Split{}, fmt.Errorf("fold split: fold %d has no items", trainFold)
	case len(s.Test) == 0:
		return Split{}, fmt.Errorf("fold split: every item is in fold %d, nothing left to test on", trainFold)
	}
	return s, nil
}

// AllFoldSplits returns [FoldSplits](folds, k) for k = 0..K-1, where the
// folds must be numbered 0..K-1 with K ≥ 2 and none of them empty (the OCR
// file has K = 10).
func AllFoldSplits(folds []int) ([]Split, error) {
	if err := checkFolds(folds); err != nil {
		return nil, err
	}
	last := slices.Max(folds)
	switch {
	case last == 0:
		return nil, fmt.Errorf("fold splits: only fold 0, need ≥ 2 folds")
	case last >= len(folds): // some fold must be empty; don't allocate last+1 counters
		return nil, fmt.Errorf("fold splits: folds run to %d but there are only %d items, so some fold is empty", last, len(folds))
	}
	k := last + 1
	size := make([]int, k)
	for _, f := range folds {
		size[f]++
	}
	splits := make([]Split, k)
	for f, n := range size {
		if n == 0 {
			return nil, fmt.Errorf("fold splits: folds run to %d but fold %d is empty", k-1, f)
		}
		s, err := FoldSplits(folds, f)
		if err != nil {
			return nil, fmt.Errorf("fold splits: %w", err)
		}
		splits[f] = s
	}
	return splits, nil
}

// checkFolds rejects an empty fold list and negative folds.
func checkFolds(folds []int) error {
	if len(folds) == 0 {
		return fmt.Errorf("fold split: no items")
	}
	for i, f := range folds {
		if f < 0 {
			return fmt.Errorf("fold split: item %d has fold %d, need ≥ 0", i, f)
		}
	}
	return nil
}
