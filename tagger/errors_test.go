package tagger

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/trainers"
)

// TestBadInput: what cannot be read or trained is an error that names the
// cause (and the file and line where there is one).
func TestBadInput(t *testing.T) {
	t.Parallel()
	good := nerFixture(6, 10, "iob2")
	for _, tc := range []struct {
		name  string
		text  string // the training file ("" with path: no file)
		path  string
		f     Format
		opt   Options
		want  string
		isErr error
	}{
		{name: "missing file", path: filepath.Join(t.TempDir(), "none.txt"), want: "none.txt", isErr: fs.ErrNotExist},
		{name: "wrong column count", text: "EU NNP B-ORG\nrejects VBZ\n", want: "train.txt:2: 2 columns, want 3"},
		{name: "bad tag", text: "EU NNP B-ORG\nrejects VBZ X-ORG\n", f: Format{Scheme: "iob2"}, want: `train.txt:2: field "label": tag "X-ORG"`},
		{name: "bad encoding", text: good, f: Format{Scheme: "bilou"}, want: `unknown label encoding "bilou"`},
		{name: "cora with columns", text: coraFixture(1, 2), f: Format{Kind: FormatCora, Columns: []string{"word", "label"}}, want: "Cora text has no columns"},
		{name: "empty", text: "\n\n", want: "no sentences"},
		{name: "unknown trainer", text: good, opt: Options{Trainer: "svm"}, want: `unknown trainer "svm" (known: [margin slack`},
		{name: "bad param", text: good, opt: Options{Trainer: "poslearn", Params: trainers.Values{"C": -1.0}}, want: "C: must be in (0, 1e+12], got -1"},
		{name: "missing C", text: good, opt: Options{Trainer: "margin"}, want: "C: is required and missing"},
		{name: "unknown param", text: good, opt: Options{Trainer: "perceptron", Params: trainers.Values{"C": 1.0}}, want: `C: does not apply to trainer "perceptron"`},
		{name: "unknown task", text: good, opt: Options{Task: "parsing", Trainer: "perceptron"}, want: `unknown task "parsing"`},
		{name: "segmentation of chunks", text: good, opt: Options{Task: Segmentation, Trainer: "perceptron"}, want: "needs plain labels"},
		{name: "unsupported trainer", text: good, opt: Options{Task: Segmentation, Trainer: "entropy-margin", Params: trainers.Values{"C": 1.0, "beta": 1.0, "rescaling": "slack"}}, want: "entropy-margin"},
		{name: "bad features", text: good, opt: Options{Trainer: "perceptron", Features: Features{Kind: "pixels"}}, want: `unknown feature kind "pixels"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d *Data
			var err error
			if tc.path != "" {
				d, err = ReadData(tc.path, tc.f)
			} else {
				d, err = ParseData(strings.NewReader(tc.text), "train.txt", tc.f)
			}
			if err == nil {
				if tc.opt.Trainer == "" {
					tc.opt.Trainer = "perceptron"
				}
				_, _, err = Train(context.Background(), d, tc.opt)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || tc.isErr != nil && !errors.Is(err, tc.isErr) {
				t.Errorf("error %v, want one mentioning %q (is %v)", err, tc.want, tc.isErr)
			}
		})
	}
}
