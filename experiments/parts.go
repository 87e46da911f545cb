package experiments

import (
	"fmt"

	"github.com/maxmargin/repro/datasets"
)

// parts returns the sequences unit u trains on and evaluates on: its
// split's training and test parts, or for a validation unit the training
// part less what it holds out (or the corpus's development part).
func (r *runner) parts(u unitSpec) (train, eval []int, err error) {
	d := r.dataset(u.Dataset)
	var split datasets.Split
	var dev []int
	switch u.SplitKind {
	case SplitFold:
		split, err = datasets.FoldSplits(d.folds, u.Split)
	case SplitFixed:
		split, dev, err = datasets.PartSplit(d.parts)
	case SplitFile:
		split, dev, err = r.fileSplit(u)
	default:
		split, err = datasets.SplitAt(len(d.seqs), u.Split, u.TrainFraction, u.Seed)
	}
	if err != nil {
		return nil, nil, err
	}
	train, eval = split.Train, split.Test
	if u.Phase == phaseValidate {
		// A corpus with a development part chooses on it; any other holds
		// out part of the training set.
		if len(dev) > 0 {
			eval = dev
		} else {
			train, eval = datasets.HoldOut(split.Train, u.ValidationFraction, holdOutSeed(u.Seed, u.Split))
		}
	}
	return train, eval, nil
}

// checkParts fails before any unit runs when one of the planned units
// would train or evaluate on no sequence at all (a dataset too small for
// its splits: three synthetic sequences with the default fractions leave
// nothing to validate on), naming the dataset and the settings to change.
// Random splits of one dataset and fraction all have the same sizes, so
// one of them is checked for all.
func (r *runner) checkParts(phases ...[]unitSpec) error {
	seen := map[string]bool{}
	for _, units := range phases {
		for _, u := range units {
			k := fmt.Sprintf("%s|%s|%g|%s", u.Dataset, u.SplitKind, u.TrainFraction, u.Phase)
			if u.SplitKind != "" {
				k += fmt.Sprintf("|%d", u.Split)
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			train, eval, err := r.parts(u)
			if err != nil {
				return fmt.Errorf("%s: dataset %q, split %d: %w", r.cfg.File(), u.Dataset, u.Split, err)
			}
			if len(train) > 0 && len(eval) > 0 {
				continue
			}
			what := "test"
			if u.Phase == phaseValidate {
				what = fmt.Sprintf("validate (validation_fraction %g of the training part)", u.ValidationFraction)
			}
			return fmt.Errorf("%s: dataset %q has %d sequences: split %d with train_fraction %g leaves %d to train on and %d to %s; every unit needs at least one of each: give the dataset more sequences, or change splits.train_fractions",
				r.cfg.File(), u.Dataset, len(r.dataset(u.Dataset).seqs), u.Split, u.TrainFraction, len(train), len(eval), what)
		}
	}
	return nil
}
