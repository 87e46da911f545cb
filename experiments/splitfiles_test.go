package experiments

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmargin/repro/datasets"
)

// cfgSplit is how configs/svmstruct-cfg-split.json was drawn: split 0 of
// the 393 short WSJ-sample trees, 60 % for training, seed 1999.
const (
	cfgSplitFile  = "svmstruct-cfg-split.json"
	cfgSplitTrees = 393
	cfgSplitTrain = 0.6
	cfgSplitSeed  = 1999
)

// cfgSplitJSON writes the split as the file holds it.
func cfgSplitJSON(t *testing.T) []byte {
	t.Helper()
	s, err := datasets.SplitAt(cfgSplitTrees, 0, cfgSplitTrain, cfgSplitSeed)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{
		"how":         fmt.Sprintf("datasets.SplitAt(%d, 0, %g, %d), written by TestSplitFilesAreDrawn (REPRO_UPDATE=1 rewrites it)", cfgSplitTrees, cfgSplitTrain, cfgSplitSeed),
		"n_sequences": cfgSplitTrees,
		"splits":      []map[string][]int{{"train": s.Train, "test": s.Test}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// The committed split files are drawn by repro's own random splits, not
// typed: the file equals what datasets.SplitAt draws.
func TestSplitFilesAreDrawn(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "configs", cfgSplitFile)
	want := cfgSplitJSON(t)
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
		t.Errorf("%s is not the split datasets.SplitAt draws (REPRO_UPDATE=1 go test -run TestSplitFilesAreDrawn ./experiments/ rewrites it)", path)
	}
	sf, err := datasets.ReadSplitFile(path)
	if err != nil || len(sf.Splits) != 1 {
		t.Fatalf("%v, %+v", err, sf)
	}
}
