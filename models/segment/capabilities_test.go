package segment_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// The segmentation model implements the trainers' capability interfaces
// structurally; these assertions, kept in a test so that the package itself
// need not import trainers, fail to compile if a signature drifts. (It has no slack-rescaled
// partition function: no trainers.SlackLogLinear.)
var (
	_ trainers.Model[[]structpred.Segment]                 = (*segment.Model)(nil)
	_ trainers.LossAugmentedDecoder[[]structpred.Segment]  = (*segment.Model)(nil)
	_ trainers.TruthExcludingDecoder[[]structpred.Segment] = (*segment.Model)(nil)
	_ trainers.LossCountDecoder[[]structpred.Segment]      = (*segment.Model)(nil)
	_ trainers.PositionDecoder[[]structpred.Segment]       = (*segment.Model)(nil)
	_ trainers.KBestDecoder[[]structpred.Segment]          = (*segment.Model)(nil)
	_ trainers.LogLinear[[]structpred.Segment]             = (*segment.Model)(nil)
	_ trainers.Forker[[]structpred.Segment]                = (*segment.Model)(nil)
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
