package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/report"
)

// writeAttributeFile writes n synthetic sequences as a CRFsuite attribute
// file: the word, the previous word, an escaped name and a valued
// attribute (the word's length / 4) per token.
func writeAttributeFile(t *testing.T, path string, n int) {
	t.Helper()
	c, err := datasets.Synthetic(datasets.SyntheticConfig{Sequences: n, Labels: 3, MinLen: 4, MaxLen: 8, Vocab: 10, Stay: 0.8, Noise: 0.3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	a := &datasets.Attributes{Values: make([][][]float64, n)}
	for i, s := range c.Sequences {
		names := make([][]string, len(s.Tokens))
		a.Values[i] = make([][]float64, len(s.Tokens))
		for p, tok := range s.Tokens {
			names[p] = []string{"w=" + tok, "has:colon", "len"}
			if p > 0 {
				names[p] = append(names[p], "w[-1]="+s.Tokens[p-1])
			}
			a.Values[i][p] = make([]float64, len(names[p]))
			for j := range names[p] {
				a.Values[i][p][j] = 1
			}
			a.Values[i][p][2] = float64(len(tok)) / 4
		}
		a.Names = append(a.Names, names)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := datasets.WriteCRFsuite(f, c, a); err != nil {
		t.Fatal(err)
	}
}

// writeFile writes text to dir/name and returns the path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// indices lists from..to-1 as JSON.
func indices(from, to int) string {
	var s []string
	for i := from; i < to; i++ {
		s = append(s, fmt.Sprint(i))
	}
	return "[" + strings.Join(s, ", ") + "]"
}

const attributeConfig = `name: ext
seed: 3
datasets:
  - {name: tiny, format: crfsuite, path: tiny.txt}
features: {kind: given}
splits: {kind: file, path: splits.json}
trainers:
  - {name: margin, C: [0.1, 1]}
  - {name: crf, C: [1]}
compare:
  - [margin, crf]
`

// An attribute-file dataset with a split file trains end to end: each
// split's parts are the file's, C is chosen on the file's dev part or on a
// held-out quarter of the training part, and two runs give the same
// numbers.
func TestRunAttributeFileWithSplitFile(t *testing.T) {
	t.Parallel()
	data, conf := t.TempDir(), t.TempDir()
	writeAttributeFile(t, filepath.Join(data, "tiny.txt"), 30)
	writeFile(t, conf, "splits.json", `{"n_sequences": 30, "splits": [
  {"seed": 1, "train": `+indices(0, 12)+`, "test": `+indices(12, 30)+`},
  {"seed": 2, "train": `+indices(10, 22)+`, "dev": `+indices(22, 26)+`,
   "test": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 26, 27, 28, 29]}]}`)
	cfg := writeConfig(t, filepath.Join(conf, "ext.yaml"), attributeConfig)
	if cfg.Splits.Count != 2 {
		t.Fatalf("count %d, want the file's 2", cfg.Splits.Count)
	}
	run := func() ([]report.Run, string) {
		dir := t.TempDir()
		if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		return readRuns(t, dir), dir
	}
	first, dir := run()
	if len(first) != 4 {
		t.Fatalf("%d runs, want 4 (2 trainers × 2 splits)", len(first))
	}
	for _, r := range first {
		want := [2]int{12, 18}
		if r.Split == 1 {
			want = [2]int{12, 14}
		}
		if got := [2]int{r.TrainSize, r.TestSize}; got != want {
			t.Errorf("%s split %d: trained on %d, tested on %d; want %v", r.Trainer, r.Split, r.TrainSize, r.TestSize, want)
		}
		if r.Outcomes == nil {
			t.Errorf("%s split %d: no per-sentence outcomes", r.Trainer, r.Split)
		}
	}
	units, err := filepath.Glob(filepath.Join(dir, "units", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	validation := 0
	for _, f := range units {
		u, _, err := store.Cache{Dir: filepath.Dir(f)}.Load(strings.TrimSuffix(filepath.Base(f), ".json"))
		if err != nil {
			t.Fatal(err)
		}
		if u.Spec.Phase != store.PhaseValidate {
			continue
		}
		validation++
		want := map[int][2]int{0: {9, 3}, 1: {12, 4}}[u.Spec.Split] // a held-out quarter, or the dev part
		if got := [2]int{u.TrainSize, u.EvalSize}; got != want {
			t.Errorf("split %d: C=%v validated on %v, want %v", u.Spec.Split, u.Spec.C, got, want)
		}
	}
	if validation != 4 {
		t.Errorf("%d validation units, want 4 (margin's two Cs on two splits)", validation)
	}
	if second, _ := run(); !equalViews(metricView(first), metricView(second)) {
		t.Errorf("two runs differ:\n%+v\n%+v", metricView(first), metricView(second))
	}
}

// The split file enters the unit keys split by split: editing one split
// recomputes its units only, reordering a part recomputes nothing, and a
// plan made before the edit no longer runs.
func TestSplitFileKeys(t *testing.T) {
	t.Parallel()
	conf := t.TempDir()
	const text = `name: keys
seed: 5
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3, min_len: 4, max_len: 8}
splits: {kind: file, path: s.json}
trainers:
  - {name: margin, C: [0.1, 1]}
`
	split0 := `{"train": ` + indices(0, 20) + `, "test": ` + indices(20, 40) + `}`
	keys := func(split1 string) ([]string, []PlannedUnit, *config.Config) {
		writeFile(t, conf, "s.json", `{"splits": [`+split0+`, `+split1+`]}`)
		cfg := writeConfig(t, filepath.Join(conf, "keys.yaml"), text)
		plan, err := Plan(context.Background(), cfg, Options{OutDir: filepath.Join(conf, "out")})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range plan {
			out = append(out, fmt.Sprintf("%d %s %s", p.Spec.Split, p.Phase, p.Spec.Key()))
		}
		return out, plan, cfg
	}
	base, plan, _ := keys(`{"train": ` + indices(20, 40) + `, "test": ` + indices(0, 20) + `}`)
	if len(base) != 6 {
		t.Fatalf("%d units, want 6", len(base))
	}
	reordered, _, _ := keys(`{"test": [19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0], "train": ` + indices(20, 40) + `}`)
	if !slices.Equal(base, reordered) {
		t.Errorf("reordering a part changed keys:\n%v\n%v", base, reordered)
	}
	edited, _, cfg := keys(`{"train": ` + indices(21, 40) + `, "test": ` + indices(0, 21) + `}`)
	for i := range base {
		if changed := base[i] != edited[i]; changed != strings.HasPrefix(base[i], "1 ") {
			t.Errorf("unit %d: %s → %s (only split 1's units should change)", i, base[i], edited[i])
		}
	}
	if _, err := RunUnit(context.Background(), cfg, plan, 2, Options{OutDir: filepath.Join(conf, "out")}); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("a plan from before the edit ran: %v", err)
	}
}

// Split files and given features are checked when the config is parsed,
// or, for what needs the data, when it loads; each error names the file,
// line and field.
func TestSplitFileAndGivenFeatureErrors(t *testing.T) {
	t.Parallel()
	conf := t.TempDir()
	writeFile(t, conf, "two.json", "{\"splits\": [\n{\"train\": [0, 1], \"test\": [2, 3]},\n{\"train\": [2, 3], \"test\": [0, 40]}]}")
	writeFile(t, conf, "bad.json", "{\"splits\": [\n{\"train\": [0, 1],\n \"tset\": [2, 3]}]}")
	writeFile(t, conf, "tiny.txt", "a\tx:2\n\nb\ty\n\na\tx\n\nb\tz\n")
	writeFile(t, conf, "four.json", `[{"train": [0, 1], "test": [2, 3]}]`)
	const synthetic = "datasets:\n  - name: synthetic\n    synthetic: {sequences: 40, labels: 3, min_len: 4, max_len: 8}\n"
	const trainers = "trainers:\n  - {name: margin, C: [1]}\n"
	tests := []struct {
		name, text string
		loads      bool // the error shows when the data loads
		want       []string
	}{
		{"no path", synthetic + "splits: {kind: file}\n" + trainers, false, []string{"c.yaml:4: splits: splits.kind file needs path"}},
		{"path without kind", synthetic + "splits: {path: two.json}\n" + trainers, false, []string{"c.yaml:4: splits.path: a split file is read by splits.kind file"}},
		{"kind typo", synthetic + "splits: {kind: fiel, path: two.json}\n" + trainers, false, []string{`splits.kind: unknown split kind "fiel" (did you mean "file"?)`}},
		{"missing file", synthetic + "splits: {kind: file, path: none.json}\n" + trainers, false, []string{"c.yaml:4: splits.path: reading split file", "none.json"}},
		{"bad file", synthetic + "splits: {kind: file, path: bad.json}\n" + trainers, false, []string{"c.yaml:4: splits.path: ", `bad.json:3: field "splits[0].tset": unknown key "tset"`}},
		{"count mismatch", synthetic + "splits: {kind: file, path: two.json, count: 3}\n" + trainers, false, []string{"c.yaml:4: splits.count: count is 3, but split file", "two.json has 2 splits"}},
		{"train fractions", synthetic + "splits: {kind: file, path: two.json, train_fractions: [0.5]}\n" + trainers, false, []string{"splits.train_fractions: a split file gives the training parts"}},
		{"fixed parts", "datasets:\n  - {name: tiny, format: conll, encoding: iob2, train: a.txt, test: b.txt}\nsplits: {kind: file, path: two.json}\n" + trainers, false, []string{"c.yaml:2: datasets[0].name: a split file names the sequences of one file"}},
		{"index out of range", synthetic + "splits: {kind: file, path: two.json}\n" + trainers, true, []string{"splits.path: ", `two.json:3: field "splits[1].test[1]": index 40 is out of range: dataset "synthetic" has 40 sequences (0..39)`}},
		{"attribute file without given", "datasets:\n  - {name: tiny, format: crfsuite, path: tiny.txt}\n" + trainers, false, []string{"c.yaml:2: datasets[0]: dataset \"tiny\": attribute files (format crfsuite) go with features.kind given"}},
		{"given without attribute file", synthetic + "features: {kind: given}\n" + trainers, false, []string{"datasets[0]: dataset \"synthetic\": attribute files (format crfsuite) go with features.kind given", "and only they do"}},
		{"given with a window", "datasets:\n  - {name: tiny, format: crfsuite, path: tiny.txt}\nfeatures: {kind: given, window: 1}\n" + trainers, false, []string{"c.yaml:3: features.window: given attributes are used as they are"}},
		{"values for segmentation", "datasets:\n  - {name: tiny, format: crfsuite, path: tiny.txt}\nfeatures: {kind: given}\ntasks: [sequence, segmentation]\nsplits: {kind: file, path: four.json}\n" + trainers, true, []string{`dataset "tiny": its attributes have values other than 1, which only the sequence task's model uses; task segmentation`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, conf, "c.yaml", tt.text)
			cfg, err := config.Load(path)
			if tt.loads {
				if err != nil {
					t.Fatalf("config refused: %v", err)
				}
				_, err = Plan(context.Background(), cfg, Options{OutDir: t.TempDir(), DataDir: conf})
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

// Unit keys are content addresses of cached results: these are the keys of
// configs/quickstart.yaml (and, with the data, configs/ci.yaml) at the
// commit before split files and given attributes existed. A change that
// moves them must bump store.SchemaVersion on purpose.
func TestUnitKeysPinned(t *testing.T) {
	t.Parallel()
	pinned := map[string]string{
		"quickstart": "f8d689e480763bf296b33e544fd36409548f271c7191c705511d48e06d0b366d",
		"ci":         "2ff8a9a3a6c3d47cfbce10546e37d7a52e347f7e9d17d9eb96a0ddac73cb880c",
	}
	for _, name := range slices.Sorted(maps.Keys(pinned)) {
		cfg, err := config.Load(filepath.Join("..", "configs", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{OutDir: t.TempDir()}
		if name != "quickstart" {
			dir, ok := os.LookupEnv(datasets.EnvDataDir)
			if !ok {
				t.Logf("%s: %s unset, not checked", name, datasets.EnvDataDir)
				continue
			}
			opt.DataDir = dir
		}
		plan, err := Plan(context.Background(), cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, p := range plan {
			keys = append(keys, p.Key)
		}
		sum := sha256.Sum256([]byte(strings.Join(keys, "\n")))
		if got := hex.EncodeToString(sum[:]); got != pinned[name] {
			t.Errorf("%s: unit keys hash %s, pinned %s", name, got, pinned[name])
		}
	}
}
