package experiments

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/report"
)

// writeSyntheticOCR writes a file in the OCR dataset's format: words over
// letters a..e whose 16×8 images are a fixed random prototype per letter
// with 5% of pixels flipped, spread over three folds.
func writeSyntheticOCR(t *testing.T, dataDir string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(4, 2))
	const letters = 5
	proto := make([][128]bool, letters)
	for l := range proto {
		for p := range proto[l] {
			proto[l][p] = rng.IntN(4) == 0
		}
	}
	var buf bytes.Buffer
	id := 1
	for word := 1; word <= 60; word++ {
		n := 3 + rng.IntN(4)
		for pos := 1; pos <= n; pos++ {
			l := rng.IntN(letters)
			next := id + 1
			if pos == n {
				next = -1
			}
			fmt.Fprintf(&buf, "%d\t%c\t%d\t%d\t%d\t%d", id, 'a'+l, next, word, pos, word%3)
			for p := range 128 {
				on := proto[l][p] != (rng.IntN(20) == 0)
				if on {
					buf.WriteString("\t1")
				} else {
					buf.WriteString("\t0")
				}
			}
			buf.WriteString("\n")
			id++
		}
	}
	if err := os.MkdirAll(filepath.Join(dataDir, "ocr"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dataDir, "ocr", "letter.data.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

const ocrConfig = `name: ocr-test
datasets: [{name: ocr}]
features: {kind: pixels, degree: DEGREE}
splits: {kind: fold, count: 3}
trainers:
  - {name: perceptron, epochs: 5}
  - {name: margin, C: [0.1, 1]}
`

func TestRunOCRFoldSplits(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeSyntheticOCR(t, data)
	degrees := []string{"1", "2"}
	if testing.Short() {
		degrees = degrees[:1] // degree 2 trains for seconds; its features are checked by TestPixelAttributesMadeWhenAsked
	}
	for _, degree := range degrees {
		cfg := mustConfig(t, strings.Replace(ocrConfig, "DEGREE", degree, 1))
		dir := t.TempDir()
		if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, DataSource: "--data", Workers: 2}); err != nil {
			t.Fatal(err)
		}
		runs := readRuns(t, dir)
		if len(runs) != 6 { // 2 trainers × 3 folds
			t.Fatalf("degree %s: %d runs, want 6", degree, len(runs))
		}
		for _, r := range runs {
			// Fold k trains on the 20 words of fold k and tests on the other 40.
			if r.TrainSize != 20 || r.TestSize != 40 || r.TrainFraction != 0 {
				t.Errorf("degree %s: fold split sizes %d/%d fraction %v", degree, r.TrainSize, r.TestSize, r.TrainFraction)
			}
			if r.Metrics["token_error"] > 20 { // 5 well-separated letters: chance is 80%
				t.Errorf("degree %s %s fold %d: token error %.1f", degree, r.Trainer, r.Split, r.Metrics["token_error"])
			}
		}
	}
}

func TestFoldAndPixelConfigErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ text, want string }{
		{strings.Replace(ocrConfig, "DEGREE", "3", 1), "degree 1 or 2"},
		{strings.Replace(strings.Replace(ocrConfig, "DEGREE", "1", 1), "count: 3}", "count: 3, train_fractions: [0.5]}", 1), "remove train_fractions"},
		{strings.Replace(strings.Replace(ocrConfig, "DEGREE", "1", 1), "kind: pixels", "kind: pixel", 1), "unknown feature kind"},
	} {
		if _, err := config.Parse([]byte(tt.text), "ocr.yaml"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want %q", err, tt.want)
		}
	}
}

// Letter images keep their tokens, not their attributes: attrsOf makes
// each sequence's attributes when asked, the ones features.Pixels gives.
func TestPixelAttributesMadeWhenAsked(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeSyntheticOCR(t, data)
	for _, degree := range []int{1, 2} {
		cfg := mustConfig(t, strings.Replace(ocrConfig, "DEGREE", fmt.Sprint(degree), 1))
		prepared, err := prepare(context.Background(), cfg, Options{DataDir: data, DataSource: "--data"}.WithDefaults(cfg))
		if err != nil {
			t.Fatal(err)
		}
		d := prepared[0]
		if d.attrs != nil || len(d.pixels) != len(d.seqs) || len(d.seqs) == 0 {
			t.Fatalf("degree %d: %d attribute lists and %d token lists kept for %d sequences", degree, len(d.attrs), len(d.pixels), len(d.seqs))
		}
		for i := range d.seqs {
			want, err := features.Pixels(d.pixels[i], degree)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.attrsOf(i); !reflect.DeepEqual(got, want) {
				t.Fatalf("degree %d, sequence %d: attributes %v, want %v", degree, i, got, want)
			}
		}
		if got := d.pickAttrs([]int{2, 0}); !reflect.DeepEqual(got, [][][]string{d.attrsOf(2), d.attrsOf(0)}) {
			t.Errorf("degree %d: pickAttrs gives %v", degree, got)
		}
	}
}

// features.normalize enters unit keys only when it scales the features:
// a pixel config without the key and one that spells out none plan the
// same units (the committed OCR results keep theirs), and unit plans
// others.
func TestPixelNormalizeUnitKeys(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeSyntheticOCR(t, data)
	plan := func(normalize string) []string {
		text := strings.Replace(strings.Replace(ocrConfig, "DEGREE", "2", 1), "degree: 2}", "degree: 2"+normalize+"}", 1)
		units, err := Plan(context.Background(), configFile(t, text), Options{OutDir: t.TempDir(), DataDir: data, DataSource: "--data"})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, u := range units {
			if u.Key == "" {
				continue // a test unit whose C validation chooses
			}
			spec, err := json.Marshal(u.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(spec), `"normalize":"unit"`) != (normalize == ", normalize: unit") || strings.Contains(string(spec), "none") {
				t.Errorf("normalize %q: unit spec %s", normalize, spec)
			}
			keys = append(keys, u.Key)
		}
		if len(keys) == 0 {
			t.Fatalf("normalize %q: no unit with a key", normalize)
		}
		return keys
	}
	plain := plan("")
	if none := plan(", normalize: none"); !slices.Equal(plain, none) {
		t.Errorf("normalize: none changed the unit keys:\n%v\n%v", plain, none)
	}
	unit := plan(", normalize: unit")
	for _, k := range unit {
		if slices.Contains(plain, k) {
			t.Errorf("normalize: unit planned the unnormalised unit %s", k)
		}
	}
}

// Normalised pixels reach the task as values beside the attributes, the
// ones features.PixelValues gives, made when asked as the attributes are;
// unnormalised pixels have none (every value 1).
func TestPixelValuesReachTheTask(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeSyntheticOCR(t, data)
	for _, degree := range []int{1, 2} {
		for _, normalize := range []string{"", ", normalize: unit"} {
			text := strings.Replace(ocrConfig, "degree: DEGREE}", fmt.Sprintf("degree: %d%s}", degree, normalize), 1)
			cfg := mustConfig(t, text)
			prepared, err := prepare(context.Background(), cfg, Options{DataDir: data, DataSource: "--data"}.WithDefaults(cfg))
			if err != nil {
				t.Fatal(err)
			}
			d := prepared[0]
			c := d.corpus()
			if (c.Values != nil) != (normalize != "") || d.values != nil {
				t.Fatalf("degree %d%s: corpus values %v, kept values %v", degree, normalize, c.Values != nil, d.values != nil)
			}
			if c.Values == nil {
				continue
			}
			for i := range d.seqs {
				want, err := features.PixelValues(d.pixels[i], degree)
				if err != nil {
					t.Fatal(err)
				}
				if got := c.Values(i); !reflect.DeepEqual(got, want) {
					t.Fatalf("degree %d, sequence %d: values %v, want %v", degree, i, got, want)
				}
			}
		}
	}
}

// A normalised OCR run trains and tests through the values: the letters
// are as well separated as unnormalised (TestRunOCRFoldSplits), and the
// perceptron, which only the relative scale of the vertex and edge
// features can move, predicts differently on some fold.
func TestRunOCRNormalized(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeSyntheticOCR(t, data)
	run := func(normalize string) []report.Run {
		text := strings.Replace(ocrConfig, "degree: DEGREE}", "degree: 1"+normalize+"}", 1)
		dir := t.TempDir()
		if _, err := Run(context.Background(), mustConfig(t, text), Options{OutDir: dir, DataDir: data, DataSource: "--data", Workers: 2}); err != nil {
			t.Fatal(err)
		}
		return readRuns(t, dir)
	}
	plain, unit := run(""), run(", normalize: unit")
	if len(unit) != 6 {
		t.Fatalf("%d runs, want 6", len(unit))
	}
	differ := false
	for i, r := range unit {
		if r.Metrics["token_error"] > 20 {
			t.Errorf("%s fold %d: token error %.1f", r.Trainer, r.Split, r.Metrics["token_error"])
		}
		if r.Trainer == plain[i].Trainer && r.Split == plain[i].Split && r.Metrics["token_error"] != plain[i].Metrics["token_error"] {
			differ = true
		}
	}
	if !differ {
		t.Error("every normalised run scored as its unnormalised one: were the values used?")
	}
}
