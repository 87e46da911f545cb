package experiments

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/report"
)

// parts returns the sequences unit u trains on and evaluates on: its
// split's training and test parts, or for a validation unit the training
// part less what it holds out (or the corpus's development part).
func (r *runner) parts(u unitSpec) (train, eval []int, err error) {
	d := r.dataset(u.Dataset)
	var split datasets.Split
	var dev []int
	switch u.SplitKind {
	case config.SplitFold:
		split, err = datasets.FoldSplits(d.folds, u.Split)
	case config.SplitFixed:
		split, dev, err = datasets.PartSplit(d.parts)
	case config.SplitInstance:
		split, dev, err = datasets.InstanceSplit(d.parts, d.instances, u.Split)
	case config.SplitFile:
		split, dev, err = r.fileSplit(u)
	case config.SplitPerClass:
		classes := make([]int, len(d.seqs))
		for i, s := range d.seqs {
			classes[i] = s.Labels[0]
		}
		if d.parts != nil {
			// Fixed parts: the training items from the train part, tested
			// on the test part (a subset of MNIST's training images).
			split, dev, err = datasets.PerClassPartSplitAt(classes, d.parts, u.Split, int(u.TrainFraction), u.Seed)
		} else {
			split, err = datasets.PerClassSplitAt(classes, u.Split, int(u.TrainFraction), u.Seed)
		}
	default:
		split, err = datasets.SplitAt(len(d.seqs), u.Split, u.TrainFraction, u.Seed)
	}
	if err != nil {
		return nil, nil, err
	}
	train, eval = split.Train, split.Test
	if u.Phase == store.PhaseValidate {
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
			if u.Phase == store.PhaseValidate {
				what = fmt.Sprintf("validate (validation_fraction %g of the training part)", u.ValidationFraction)
			}
			return fmt.Errorf("%s: dataset %q has %d sequences: split %d with train_fraction %g leaves %d to train on and %d to %s; every unit needs at least one of each: give the dataset more sequences, or change splits.train_fractions",
				r.cfg.File(), u.Dataset, len(r.dataset(u.Dataset).seqs), u.Split, u.TrainFraction, len(train), len(eval), what)
		}
	}
	return nil
}

// outputNames are files a run writes into its output directory (and into
// PartialDir) whatever the config: none may be the config itself.
var outputNames = []string{"config.yaml", report.RunsFile, "report.json", "index.html", store.CostFile}

// checkConfigNotOutput refuses a run whose outputs would replace its own
// config file (repro run --out DIR DIR/config.yaml would overwrite the
// user's config with the effective one), compared by identity so that a
// link counts too.
func checkConfigNotOutput(config, outDir string) error {
	if config == "" {
		return nil
	}
	st, err := os.Stat(config)
	if err != nil {
		return nil // a config parsed from memory, or gone: nothing to protect
	}
	for _, dir := range []string{outDir, filepath.Join(outDir, PartialDir)} {
		for _, name := range outputNames {
			out := filepath.Join(dir, name)
			if ost, err := os.Stat(out); err == nil && os.SameFile(st, ost) {
				return fmt.Errorf("the config %s is %s, which the run writes: running would replace it; copy the config elsewhere, or give another --out", config, out)
			}
		}
	}
	return nil
}
