package multiclass_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/trainers"
)

// The multiclass model implements the trainers' capability interfaces
// structurally; these assertions, kept in a test so that the package itself
// need not import trainers, fail to compile if a signature drifts.
var (
	_ trainers.Model[int]                 = (*multiclass.Model)(nil)
	_ trainers.LossAugmentedDecoder[int]  = (*multiclass.Model)(nil)
	_ trainers.TruthExcludingDecoder[int] = (*multiclass.Model)(nil)
	_ trainers.LossCountDecoder[int]      = (*multiclass.Model)(nil)
	_ trainers.PositionDecoder[int]       = (*multiclass.Model)(nil)
	_ trainers.KBestDecoder[int]          = (*multiclass.Model)(nil)
	_ trainers.LogLinear[int]             = (*multiclass.Model)(nil)
	_ trainers.SlackLogLinear[int]        = (*multiclass.Model)(nil)
	_ trainers.Forker[int]                = (*multiclass.Model)(nil)
	_ trainers.DeltaScorer[int]           = (*multiclass.Model)(nil)
	_ trainers.DeltaAdder[int]            = (*multiclass.Model)(nil)
)

// Every trainer of the registry accepts the model (each has a capability
// it serves; see doc.go), but for latent-lbeta, since the model has no
// latent variables, and the generative baselines (generative, hmm), since
// it has no generative counterpart.
func TestEveryTrainerAcceptsTheModel(t *testing.T) {
	t.Parallel()
	m, err := multiclass.New(nil, 2, 3, zeroCost)
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range trainers.Specs() {
		name, v := spec.Name, trainers.Values{}
		if name == trainers.LatentLBetaName || name == trainers.Generative || name == trainers.HMM {
			continue
		}
		for _, p := range spec.Params {
			if p.Required {
				v[p.Key] = 2.0 // C and β
			}
		}
		if err := trainers.Check(name, m, v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := trainers.Check(trainers.EntropyMarginName, m, trainers.Values{"C": 1.0, "beta": 2.0, "rescaling": "slack"}); err != nil {
		t.Errorf("slack-rescaled entropy-margin: %v", err)
	}
}

// TestNoTrainersImport keeps the model independent of the training
// algorithms: trainers depend on models' capabilities, never the reverse.
func TestNoTrainersImport(t *testing.T) {
	t.Parallel()
	const forbidden = "github.com/maxmargin/repro/trainers"
	files, err := filepath.Glob("*.go")
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
