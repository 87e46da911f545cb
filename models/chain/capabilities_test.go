package chain_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// The chain model implements the trainers' capability interfaces
// structurally; these assertions, kept in a test so that the package itself
// need not import trainers, fail to compile if a signature drifts.
var (
	_ trainers.Model[[]int]                 = (*chain.Model)(nil)
	_ trainers.LossAugmentedDecoder[[]int]  = (*chain.Model)(nil)
	_ trainers.TruthExcludingDecoder[[]int] = (*chain.Model)(nil)
	_ trainers.LossCountDecoder[[]int]      = (*chain.Model)(nil)
	_ trainers.PositionDecoder[[]int]       = (*chain.Model)(nil)
	_ trainers.KBestDecoder[[]int]          = (*chain.Model)(nil)
	_ trainers.LogLinear[[]int]             = (*chain.Model)(nil)
	_ trainers.SlackLogLinear[[]int]        = (*chain.Model)(nil)
	_ trainers.Forker[[]int]                = (*chain.Model)(nil)
)

// TestNoTrainersImport keeps the model independent of the training
// algorithms: trainers depend on models' capabilities, never the reverse.
func TestNoTrainersImport(t *testing.T) {
	assertNoImport(t, ".", "github.com/maxmargin/repro/trainers")
}

func assertNoImport(t *testing.T, dir, forbidden string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == forbidden {
				t.Errorf("%s imports %s", f, forbidden)
			}
		}
	}
}
