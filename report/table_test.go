package report

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSummarizeLayout(t *testing.T) {
	t.Parallel()
	tab, err := Summarize(fixtureRuns(), fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"margin", "slack", "approx-slack", "poslearn"}; !reflect.DeepEqual(tab.Trainers, want) {
		t.Errorf("Trainers = %q; want %q", tab.Trainers, want)
	}
	if tab.ShowFraction {
		t.Error("ShowFraction = true for a single train fraction")
	}
	// Row order follows Options.Tasks and Options.Datasets, not the runs.
	// Each row lists cell texts in column order; "*" marks Best.
	want := []struct {
		label string
		cells []string
		n     []int
	}{
		{"cora/sequence", []string{"12.4±0.5/74.8±0.9", "10.8±0.5/80.9±0.9 (n=5)", "-", "9.5±0.5/83.4±0.8 (n=5)*"}, []int{6, 5, 0, 5}},
		{"conll/sequence", []string{"2.9/84.7", "-", "-", "2.8/85.1*"}, []int{1, 0, 0, 1}},
		{"danish/parsing", []string{"12.5±0.1*", "-", "-", "12.6±0.1"}, []int{3, 0, 0, 3}},
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("got %d rows; want %d", len(tab.Rows), len(want))
	}
	for i, w := range want {
		row := tab.Rows[i]
		var cells []string
		var ns []int
		for _, c := range row.Cells {
			s := c.Text
			if c.Best {
				s += "*"
			}
			cells = append(cells, s)
			ns = append(ns, c.N)
		}
		if row.Label != w.label || !reflect.DeepEqual(cells, w.cells) || !reflect.DeepEqual(ns, w.n) {
			t.Errorf("row %d = %s %q n=%v; want %s %q n=%v", i, row.Label, cells, ns, w.label, w.cells, w.n)
		}
	}
	cora := tab.Rows[0]
	if got := cora.Cells[3].Splits; !reflect.DeepEqual(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("poslearn cora splits = %v; want 0..4 sorted", got)
	}
	if c := cora.Cells[0]; c.TrainSeconds != 12.5 || c.Iterations != 22.5 || c.Constraints != 125 {
		t.Errorf("margin cora cost = %v s, %v iterations, %v constraints; want 12.5, 22.5, 125",
			c.TrainSeconds, c.Iterations, c.Constraints)
	}
	if !slices.Equal(tab.Rows[2].Metrics, []string{"attachment_error"}) || !slices.Equal(tab.Rows[0].Metrics, []string{"token_error", "span_f1"}) {
		t.Errorf("row metrics %v and %v; want the parsing row's attachment error only", tab.Rows[0].Metrics, tab.Rows[2].Metrics)
	}
	if len(tab.Warnings) != 0 {
		t.Errorf("Warnings = %q; want none", tab.Warnings)
	}
}

func TestSummarizeIsOrderIndependent(t *testing.T) {
	t.Parallel()
	runs := fixtureRuns()
	want, err := Summarize(runs, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(runs)
	got, err := Summarize(runs, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reversing the runs changed the table:\ngot  %+v\nwant %+v", got, want)
	}
}

func TestSummarizeTests(t *testing.T) {
	t.Parallel()
	tab, err := Summarize(fixtureRuns(), fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	// approx-slack has no runs, so only poslearn vs margin is tested, in
	// row order.
	var labels []string
	for _, pt := range tab.Tests {
		labels = append(labels, pt.A+" vs "+pt.B+" "+pt.Label)
	}
	wantLabels := []string{"poslearn vs margin cora/sequence", "poslearn vs margin conll/sequence", "poslearn vs margin danish/parsing"}
	if !reflect.DeepEqual(labels, wantLabels) {
		t.Fatalf("tests = %q; want %q", labels, wantLabels)
	}

	// cora pairs splits 0-4; margin's split 5 has no partner.
	cora := tab.Tests[0]
	wantTok, err := PairedTTest([]float64{9.1, 10.2, 9.5, 9.6, 9.1}, []float64{12.0, 13.1, 11.8, 12.6, 12.0})
	if err != nil {
		t.Fatal(err)
	}
	wantF1, err := PairedTTest([]float64{83.0, 82.4, 84.1, 83.3, 84.2}, []float64{75.0, 73.9, 76.1, 74.2, 75.3})
	if err != nil {
		t.Fatal(err)
	}
	coraTok, _ := cora.TTestOf("token_error")
	coraF1, _ := cora.TTestOf("span_f1")
	if cora.Err != nil || !reflect.DeepEqual(coraTok, wantTok) || !reflect.DeepEqual(coraF1, wantF1) {
		t.Errorf("cora test = %+v; want token %+v, F1 %+v", cora, wantTok, wantF1)
	}
	if coraTok.N != 5 || coraTok.MeanDiff > -2.79 || coraTok.MeanDiff < -2.81 {
		t.Errorf("cora token error: n=%d diff=%v; want n=5 diff=-2.8", coraTok.N, coraTok.MeanDiff)
	}

	if conll := tab.Tests[1]; conll.Err == nil || !strings.Contains(conll.Err.Error(), "only 1 shared split") {
		t.Errorf("conll test err = %v; want too few splits", conll.Err)
	}
	if danish := tab.Tests[2]; danish.Err != nil || len(danish.TTests) != 1 || danish.TTests[0].Metric != "attachment_error" || danish.TTests[0].N != 3 {
		t.Errorf("danish test = %+v; want an attachment error test over 3 splits", danish)
	}

	lines := tab.testLines()
	wantLines := []string{
		"poslearn vs margin (cora/sequence): token error diff -2.80 points, t=-22.14, p=2.5e-05, n=5",
		"poslearn vs margin (cora/sequence): span F1 diff +8.50 points, t=37.64, p=3e-06, n=5",
		"poslearn vs margin (conll/sequence): not tested: only 1 shared split(s); need 2",
		"poslearn vs margin (danish/parsing): attachment error diff +0.12 points, t=7.00, p=0.02, n=3",
	}
	if !reflect.DeepEqual(lines, wantLines) {
		t.Errorf("test lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(wantLines, "\n"))
	}
}

func TestSummarizeTrainFractions(t *testing.T) {
	t.Parallel()
	var runs []Run
	for _, frac := range []float64{0.5, 0.1} {
		for s := range 3 {
			for _, tr := range []string{"poslearn", "margin"} {
				tok := 20 - 10*frac + float64(s)*0.1
				if tr == "poslearn" {
					tok -= 1
				}
				runs = append(runs, Run{Dataset: "address", Task: "sequence", Trainer: tr, Split: s,
					TrainFraction: frac, Metrics: map[string]float64{"token_error": tok, "span_f1": 100 - tok}})
			}
		}
	}
	tab, err := Summarize(runs, Options{Comparisons: []Comparison{{"poslearn", "margin"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !tab.ShowFraction {
		t.Fatal("ShowFraction = false for two train fractions")
	}
	// Without Options.Trainers, columns follow first appearance.
	if want := []string{"poslearn", "margin"}; !reflect.DeepEqual(tab.Trainers, want) {
		t.Errorf("Trainers = %q; want %q", tab.Trainers, want)
	}
	var labels []string
	for _, r := range tab.Rows {
		labels = append(labels, r.Label)
	}
	if want := []string{"address/sequence/0.1", "address/sequence/0.5"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("row labels = %q; want %q", labels, want)
	}
	if got := tab.keyHeader(); !slices.Contains(got, "train fraction") {
		t.Errorf("key header %q lacks the train fraction", got)
	}
	if len(tab.Tests) != 2 || tab.Tests[0].Label != "address/sequence/0.1" {
		t.Errorf("tests = %+v; want one per fraction", tab.Tests)
	}
}

func TestSummarizeBestBySpanF1(t *testing.T) {
	t.Parallel()
	runs := []Run{
		// a has the lower token error, b the higher span F1.
		{Dataset: "d", Task: "segmentation", Trainer: "a", Metrics: map[string]float64{"token_error": 10, "span_f1": 80}},
		{Dataset: "d", Task: "segmentation", Trainer: "b", Metrics: map[string]float64{"token_error": 11, "span_f1": 82}},
		{Dataset: "d", Task: "segmentation", Trainer: "c", Metrics: map[string]float64{"token_error": 10, "span_f1": 70}},
		// Alone in its row: never marked.
		{Dataset: "e", Task: "segmentation", Trainer: "a", Metrics: map[string]float64{"token_error": 10, "span_f1": 80}},
	}
	for _, tc := range []struct {
		metric Metric
		want   []bool
	}{
		{"", []bool{true, false, true}}, // tie on token error: both marked
		{"token_error", []bool{true, false, true}},
		{"span_f1", []bool{false, true, false}},
	} {
		tab, err := Summarize(runs, Options{Metric: tc.metric})
		if err != nil {
			t.Fatal(err)
		}
		var best []bool
		for _, c := range tab.Rows[0].Cells {
			best = append(best, c.Best)
		}
		if !reflect.DeepEqual(best, tc.want) {
			t.Errorf("metric %q: best = %v; want %v", tc.metric, best, tc.want)
		}
		if tab.Rows[1].Cells[0].Best {
			t.Errorf("metric %q: a lone cell is marked best", tc.metric)
		}
	}
}

func TestSummarizeVersionWarning(t *testing.T) {
	t.Parallel()
	runs := fixtureRuns()
	runs[0].Version = "def456"
	tab, err := Summarize(runs, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"runs come from 2 code versions: abc123, def456"}; !reflect.DeepEqual(tab.Warnings, want) {
		t.Errorf("Warnings = %q; want %q", tab.Warnings, want)
	}
}

func TestSummarizeErrors(t *testing.T) {
	t.Parallel()
	run := Run{Key: "k", Dataset: "cora", Task: "sequence", Trainer: "margin"}
	with := func(f func(*Run)) []Run {
		r := run
		f(&r)
		return []Run{run, r}
	}
	for _, tc := range []struct {
		name string
		runs []Run
		opt  Options
		want string
	}{
		{"no runs", nil, Options{}, "no runs"},
		{"duplicate split", with(func(r *Run) { r.Key = "k2" }), Options{}, `runs "k" and "k2" are both cora/sequence/0 margin split 0`},
		{"missing trainer", with(func(r *Run) { r.Trainer = "" }), Options{}, "dataset, task and trainer must be set"},
		{"missing dataset", with(func(r *Run) { r.Dataset = "" }), Options{}, "dataset, task and trainer must be set"},
		{"unknown metric", []Run{run}, Options{Metric: "recall"}, `unknown metric "recall"`},
		{"trainer listed twice", []Run{run}, Options{Trainers: []string{"margin", "margin"}}, "listed twice"},
		{"empty trainer listed", []Run{run}, Options{Trainers: []string{""}}, "empty trainer name"},
		{"comparison with unknown trainer", []Run{run}, Options{Comparisons: []Comparison{{"margin", "slak"}}}, `unknown trainer "slak"`},
		{"comparison with itself", []Run{run}, Options{Comparisons: []Comparison{{"margin", "margin"}}}, "with itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Summarize(tc.runs, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v; want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := Summarize(nil, Options{}); !errors.Is(err, ErrNoRuns) {
		t.Errorf("err = %v; want ErrNoRuns", err)
	}
}
