package experiments

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmargin/repro/datasets"
)

// cfgFolds is how configs/svmstruct-cfg-folds.json is drawn: 10-fold
// cross-validation over the 393 short WSJ-sample trees in file order,
// fold k testing the contiguous trees ⌊393(k−1)/10⌋ up to ⌊393k/10⌋−1
// (39 or 40, so that the sentences of one article stay together) and
// training on the rest.
const (
	cfgFoldsFile  = "svmstruct-cfg-folds.json"
	cfgFoldsTrees = 393
	cfgFoldsCount = 10
)

// cfgFoldsJSON writes the folds as the file holds them.
func cfgFoldsJSON(t *testing.T) []byte {
	t.Helper()
	type fold struct {
		Name  string `json:"name"`
		Train []int  `json:"train"`
		Test  []int  `json:"test"`
	}
	var folds []fold
	for k := range cfgFoldsCount {
		lo, hi := cfgFoldsTrees*k/cfgFoldsCount, cfgFoldsTrees*(k+1)/cfgFoldsCount
		f := fold{Name: fmt.Sprintf("fold %d", k+1)}
		for i := range cfgFoldsTrees {
			if i >= lo && i < hi {
				f.Test = append(f.Test, i)
			} else {
				f.Train = append(f.Train, i)
			}
		}
		folds = append(folds, f)
	}
	b, err := json.Marshal(map[string]any{
		"how": fmt.Sprintf("%d-fold cross-validation over the %d trees of at most 10 words of the WSJ sample in file order (configs/svmstruct-cfg.yaml): "+
			"fold k tests trees floor(%d(k-1)/%d)..floor(%dk/%d)-1, contiguous so that the sentences of one article stay together, and trains on the rest; "+
			"written by TestSplitFilesAreDrawn (REPRO_UPDATE=1 rewrites it)", cfgFoldsCount, cfgFoldsTrees, cfgFoldsTrees, cfgFoldsCount, cfgFoldsTrees, cfgFoldsCount),
		"n_sequences": cfgFoldsTrees,
		"splits":      folds,
	})
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// The committed split files are drawn by code, not typed: the file equals
// what the code writes, and its folds test every tree exactly once.
func TestSplitFilesAreDrawn(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "configs", cfgFoldsFile)
	want := cfgFoldsJSON(t)
	if os.Getenv("REPRO_UPDATE") != "" {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is not the folds cfgFoldsJSON draws (REPRO_UPDATE=1 go test -run TestSplitFilesAreDrawn ./experiments/ rewrites it)", path)
	}
	sf, err := datasets.ReadSplitFile(path)
	if err != nil || len(sf.Splits) != cfgFoldsCount {
		t.Fatalf("%v, %d splits", err, len(sf.Splits))
	}
	if err := sf.Check(cfgFoldsTrees, "wsj-sample-substitute"); err != nil {
		t.Fatal(err)
	}
	tested := make([]int, cfgFoldsTrees)
	for k, s := range sf.Splits {
		split, dev := s.Split(k)
		if len(dev) > 0 || len(split.Train)+len(split.Test) != cfgFoldsTrees {
			t.Errorf("fold %d: %d train, %d test, %d dev", k+1, len(split.Train), len(split.Test), len(dev))
		}
		for _, i := range split.Test {
			tested[i]++
		}
	}
	for i, n := range tested {
		if n != 1 {
			t.Errorf("tree %d is tested in %d folds", i, n)
		}
	}
}
