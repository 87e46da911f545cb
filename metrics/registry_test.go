package metrics_test

import (
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/metrics"
)

// The counted segment loss is the decoders' section 4.3.2 loss with unit
// penalties, on every pair of segmentations of small sentences.
func TestSegmentLossIsTheDecodersUnitLoss(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 3, 4} {
		segs := bruteforce.Segmentations(n, 2, n)
		for _, truth := range segs {
			for _, pred := range segs {
				var c metrics.Counts
				if err := c.AddSegments(truth, pred, n); err != nil {
					t.Fatal(err)
				}
				if want := semimarkov.DefaultLoss(2).Of(truth, pred); c.SegmentLoss != want {
					t.Fatalf("truth %v pred %v: loss %v, decoders' %v", truth, pred, c.SegmentLoss, want)
				}
			}
		}
	}
}

func TestTaskDeclarations(t *testing.T) {
	t.Parallel()
	names := metrics.Names()
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			t.Errorf("metric %q registered twice", n)
		}
		d, _ := metrics.Lookup(n)
		if d.Label == "" || d.Short == "" || d.Line == "" || d.Doc == "" || (d.Tests&metrics.TTest == 0) != d.Measured {
			t.Errorf("metric %q: label, short name, line name, doc and, unless it is a measurement, the t-test are required: %+v", n, d)
		}
		if d.Measured && d.Tests != 0 {
			t.Errorf("metric %q measures the machine: its differences are no paired test's business", n)
		}
		// The sign test reads an item's value from the outcomes of the
		// metric's other per-item test: one of them, so that it is clear
		// which; span counts give an F1, which is higher-better.
		if d.Has(metrics.Sign) && d.Has(metrics.McNemar) == d.Has(metrics.Bootstrap) {
			t.Errorf("metric %q: a sign test needs exactly one of McNemar (token decisions) and Bootstrap (span counts) to say what an item's value is", n)
		}
		if d.Has(metrics.Sign) && d.Has(metrics.Bootstrap) && d.Lower() {
			t.Errorf("metric %q: a sign test on span counts compares the items' F1, a score, but the metric is an error", n)
		}
		if !slices.Contains([]string{"%", "s", ""}, d.Unit) {
			t.Errorf("metric %q: unit %q; tables know %%, s and none", n, d.Unit)
		}
	}
	for _, task := range metrics.Tasks() {
		if err := task.Check(); err != nil {
			t.Error(err)
		}
		for old, now := range task.Legacy {
			if now != "" && !slices.Contains(task.Metrics, now) {
				t.Errorf("task %q maps old field %q to %q, which it does not report", task.Task, old, now)
			}
		}
	}
	if got := metrics.ForTask("no such task"); !slices.Equal(got.Metrics, names) {
		t.Errorf("undeclared task reports %v, want every metric", got.Metrics)
	}
}

// Scoring imports no decoder, so that report, which reads the registry,
// knows nothing of inference.
func TestMetricsImportNoDecoder(t *testing.T) {
	t.Parallel()
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.Contains(imp, "/decoders") || strings.Contains(imp, "/models") || strings.Contains(imp, "/trainers") {
			t.Errorf("package metrics imports %s", imp)
		}
	}
}

func ExampleForTask() {
	for _, name := range metrics.ForTask("segmentation").Metrics {
		d, _ := metrics.Lookup(name)
		better := "lower"
		if !d.Lower() {
			better = "higher"
		}
		fmt.Printf("%s (%s), %s is better\n", d.Label, d.Unit, better)
	}
	// Output:
	// segment error (%), lower is better
	// span F1 (%), higher is better
	// token error (%), lower is better
}

// docs/metrics.md defines every metric under a heading of its name and
// lists it in its table.
func TestDocsDefineEveryMetric(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "docs", "metrics.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, d := range metrics.All() {
		if !strings.Contains(doc, "\n## `"+d.Name+"`\n") || !strings.Contains(doc, "| `"+d.Name+"` | "+d.Unit+" |") {
			t.Errorf("docs/metrics.md does not define %s (a heading and a table row)", d.Name)
		}
	}
}
