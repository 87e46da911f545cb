package experiments

import (
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/metrics"
)

// Selection follows the metric it is told, in its direction; the default
// is each task's (token error), which chooses as selection always did.
func TestSelectParamsBy(t *testing.T) {
	t.Parallel()
	u := unitSpec{Dataset: "d", Task: config.TaskSequence, Trainer: "margin", Phase: store.PhaseValidate}
	var units []unitSpec
	results := map[int]unitResult{}
	for i, v := range []struct{ c, tok, f1 float64 }{{0.1, 10, 80}, {1, 8, 79}, {10, 8, 85}} {
		x := u
		x.C = v.c
		units = append(units, x)
		results[i] = unitResult{Metrics: map[string]float64{metrics.TokenError: v.tok, metrics.SpanF1: v.f1}}
	}
	by := func(name string) func(string) string {
		return func(task string) string {
			if name == "" {
				return metrics.ForTask(task).SelectBy
			}
			return name
		}
	}
	for _, tc := range []struct {
		by   string
		want float64
	}{{"", 1}, {metrics.TokenError, 1}, {metrics.SpanF1, 10}} {
		chosen, cands := selectParams(units, results, by(tc.by))
		if c := chosen[groupOf(u)]; c != tc.want {
			t.Errorf("select by %q: C %v, want %v (ties: the first in grid order)", tc.by, c, tc.want)
		}
		if len(cands[groupOf(u)]) != 3 || cands[groupOf(u)][2].Metrics[metrics.SpanF1] != 85 {
			t.Errorf("candidates %+v", cands)
		}
	}
}

func TestSelectByConfig(t *testing.T) {
	t.Parallel()
	base := "name: s\ndatasets: [{name: synthetic}]\ntasks: [sequence]\ntrainers: [{name: perceptron}]\n"
	cfg, err := config.Parse([]byte(base+"select_by: span_f1\n"), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.SelectionMetric(config.TaskSequence); got != metrics.SpanF1 {
		t.Errorf("selectBy %q", got)
	}
	for text, want := range map[string]string{
		"select_by: span_F1\n":          `unknown metric "span_F1"`,
		"select_by: attachment_error\n": "the sequence task does not report attachment_error",
	} {
		if _, err := config.Parse([]byte(base+text), "s.yaml"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}
