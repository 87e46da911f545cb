package report

import (
	"bytes"
	"encoding/csv"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// segmentErrors are the segment errors of legacyRuns' segmentation runs
// by trainer and split: poslearn has the lowest mean segment error,
// although margin has the lowest mean token error.
var segmentErrors = map[string][]float64{
	"margin":   {12.0, 12.4, 12.1, 12.6},
	"slack":    {11.6, 11.9, 11.7, 12.3},
	"poslearn": {11.0, 11.3, 11.1, 11.4},
}

// segmentRuns are legacyRuns whose segmentation runs have a segment
// error, as the runner now writes them.
func segmentRuns() []Run {
	runs := legacyRuns()
	for i := range runs {
		if r := &runs[i]; r.Task == "segmentation" {
			r.Metrics["segment_error"] = segmentErrors[r.Trainer][r.Split]
		}
	}
	return runs
}

func segmentTable(t *testing.T, runs []Run) *Table {
	t.Helper()
	tab, err := Summarize(runs, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func rowOf(t *testing.T, tab *Table, task string) Row {
	t.Helper()
	i := slices.IndexFunc(tab.Rows, func(r Row) bool { return r.Dataset == "cora" && r.Task == task })
	if i < 0 {
		t.Fatalf("no cora/%s row", task)
	}
	return tab.Rows[i]
}

func TestSummarizeSegmentError(t *testing.T) {
	tab := segmentTable(t, segmentRuns())
	if !tab.Lined {
		t.Fatal("Table.Lined not set")
	}
	seq := rowOf(t, tab, "sequence")
	if len(seq.Lines) != 1 {
		t.Errorf("sequence row has lines %v", seq.Lines)
	}
	row := rowOf(t, tab, "segmentation")
	if !slices.Equal(row.Metrics, []string{"segment_error", "span_f1", "token_error"}) || len(row.Lines) != 2 {
		t.Fatalf("segmentation row has metrics %v, lines %v", row.Metrics, row.Lines)
	}
	best, tokenBest := map[string]bool{}, map[string]bool{}
	for _, c := range row.Cells {
		if c.N == 0 {
			if c.Text != "-" {
				t.Errorf("%s: empty cell %q", c.Trainer, c.Text)
			}
			continue
		}
		mean, std := naiveMeanStd(segmentErrors[c.Trainer])
		if math.Abs(c.Stats["segment_error"].Mean-mean) > 1e-9 || math.Abs(c.Stats["segment_error"].Std-std) > 1e-9 {
			t.Errorf("%s: segment error %+v, want %v±%v", c.Trainer, c.Stats["segment_error"], mean, std)
		}
		if !strings.HasPrefix(c.Text, formatMeanStd(mean, std)+"/") {
			t.Errorf("%s: text %q, want it to start with the segment error %s", c.Trainer, c.Text, formatMeanStd(mean, std))
		}
		if want := formatMeanStd(c.Stats["token_error"].Mean, c.Stats["token_error"].Std); c.More[0] != want {
			t.Errorf("%s: token text %q, want %q", c.Trainer, c.More[0], want)
		}
		best[c.Trainer], tokenBest[c.Trainer] = c.Best, c.MoreBest[0]
	}
	if want := map[string]bool{"margin": false, "slack": false, "poslearn": true}; !maps.Equal(best, want) {
		t.Errorf("best by segment error %v, want %v", best, want)
	}
	if want := map[string]bool{"margin": true, "slack": false, "poslearn": false}; !maps.Equal(tokenBest, want) {
		t.Errorf("best by token error %v, want %v", tokenBest, want)
	}
	if len(tab.Warnings) != 0 {
		t.Errorf("warnings %q", tab.Warnings)
	}

	// With span F1 deciding, the first line follows F1 and the token line
	// still marks the lowest token error.
	opt := fixtureOptions()
	opt.Metric = "span_f1"
	f1, err := Summarize(segmentRuns(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rowOf(t, f1, "segmentation").Cells {
		if c.N > 0 && (c.Best != (c.Trainer == "margin") || c.MoreBest[0] != (c.Trainer == "margin")) {
			t.Errorf("span F1 metric: %s best %v, token best %v", c.Trainer, c.Best, c.MoreBest[0])
		}
	}
}

func formatMeanStd(mean, std float64) string {
	return strings.TrimSpace(cellText(Cell{N: 2, Stats: map[string]Stat{"token_error": {mean, std}}}, []string{"token_error"}, 2, 1, false))
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// A row in which only some runs have a segment error (a config partly
// rerun) leaves it out, as a row of runs that have none does, and says
// why.
func TestSummarizePartialSegmentError(t *testing.T) {
	runs := segmentRuns()
	delete(runs[slices.IndexFunc(runs, func(r Run) bool { return r.Metrics["segment_error"] > 0 })].Metrics, "segment_error")
	tab := segmentTable(t, runs)
	if slices.Contains(rowOf(t, tab, "segmentation").Metrics, "segment_error") {
		t.Error("a row with a run lacking segment error shows it")
	}
	if !slices.ContainsFunc(tab.Warnings, func(w string) bool {
		return strings.Contains(w, "cora/segmentation: 11 of 12 runs have a segment error")
	}) {
		t.Errorf("warnings %q lack the partial segment error", tab.Warnings)
	}
	var got, want bytes.Buffer
	if err := tab.WriteText(&got); err != nil {
		t.Fatal(err)
	}
	legacy := segmentTable(t, legacyRuns())
	legacy.Warnings = tab.Warnings
	if err := legacy.WriteText(&want); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("partial segment errors render\n%s\nwant the token error table\n%s", got.String(), want.String())
	}
}

func TestSegmentPairTests(t *testing.T) {
	tab := segmentTable(t, segmentRuns())
	i := slices.IndexFunc(tab.Tests, func(pt PairTest) bool { return pt.Row.Task == "segmentation" })
	if i < 0 {
		t.Fatal("no test on the segmentation row")
	}
	pt := tab.Tests[i]
	if pt.Err != nil {
		t.Fatalf("test %+v", pt)
	}
	seg, _ := pt.TTestOf("segment_error")
	tok, _ := pt.TTestOf("token_error")
	f1, _ := pt.TTestOf("span_f1")
	want, err := PairedTTest(segmentErrors["poslearn"], segmentErrors["margin"])
	if err != nil {
		t.Fatal(err)
	}
	if seg.MeanDiff != want.MeanDiff || seg.T != want.T || seg.P != want.P {
		t.Errorf("segment error test %+v, want %+v", seg, want)
	}
	if tok.N != 4 || f1.N != 4 {
		t.Errorf("token error and span F1 not tested too: %+v", pt)
	}
	prefix := "poslearn vs margin (cora/segmentation): "
	var lines []string
	for _, l := range tab.testLines() {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			lines = append(lines, strings.Fields(rest)[0]+" "+strings.Fields(rest)[1])
		}
	}
	if w := []string{"segment error", "token error", "span F1"}; !slices.Equal(lines, w) {
		t.Errorf("segmentation test lines %q, want %q", lines, w)
	}
}

func TestSegmentCSV(t *testing.T) {
	for _, tc := range []struct {
		name string
		runs []Run
		seg  bool
	}{{"segment", segmentRuns(), true}, {"legacy", legacyRuns(), false}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := segmentTable(t, tc.runs).WriteCSV(&buf); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := slices.Index(recs[0], "segment_error_mean")
			if (col >= 0) != tc.seg {
				t.Fatalf("header %q", recs[0])
			}
			if !tc.seg {
				return
			}
			for _, rec := range recs[1:] {
				task, trainer, n := rec[1], rec[3], rec[4]
				want := ""
				if task == "segmentation" && n != "0" {
					mean, _ := naiveMeanStd(segmentErrors[trainer])
					want = rec[col] // checked numerically below
					if got := parseFloat(t, rec[col]); math.Abs(got-mean) > 1e-9 {
						t.Errorf("%s: segment_error_mean %v, want %v", trainer, got, mean)
					}
				}
				if rec[col] != want {
					t.Errorf("%s/%s %s: segment_error_mean %q, want empty", rec[0], task, trainer, rec[col])
				}
			}
		})
	}
}

// A table with segment rows renders, in every format, an error column,
// the segment error line with its best cell and the token error line
// beneath it (testdata/segment, checked by eye when written).
func TestSegmentRenderings(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, segmentRuns(), legacySpec()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, dir, "segment", []string{
		"table.txt", "table.md", "table.csv", "table.tex", "index.html",
	})
}

// segmentPaper is legacySpec's paper with segment errors for the
// segmentation row, as the paper's Table 1 reports it: margin with a
// segment error and span F1, slack with a token error too (to check that
// each is compared with its own quantity), poslearn with a segment error
// only.
func segmentPaper() PaperReference {
	p := fixturePaper()
	p.Values = append(p.Values,
		PaperValue{Dataset: "cora", Task: "segmentation", Trainer: "margin", Metrics: map[string]float64{"segment_error": 17.7, "span_f1": 81.8}},
		PaperValue{Dataset: "cora", Task: "segmentation", Trainer: "slack", Metrics: map[string]float64{"segment_error": 17.4, "token_error": 9, "span_f1": 81.9}},
		PaperValue{Dataset: "cora", Task: "segmentation", Trainer: "poslearn", Metrics: map[string]float64{"segment_error": 16.2}},
	)
	return p
}

func TestComparePaperSegmentError(t *testing.T) {
	for _, tc := range []struct {
		name    string
		runs    []Run
		segment bool // our runs have segment errors
	}{{"segment runs", segmentRuns(), true}, {"runs without segment error", legacyRuns(), false}} {
		t.Run(tc.name, func(t *testing.T) {
			tab := segmentTable(t, tc.runs)
			pt := ComparePaper(tab, segmentPaper())
			if !slices.Contains(pt.Metrics, "segment_error") {
				t.Fatalf("no segment error columns: %v", pt.Metrics)
			}
			for _, r := range pt.Rows {
				if r.Paper.Task != "segmentation" || r.Paper.Dataset != "cora" {
					continue
				}
				tok, _ := naiveMeanStd(tokensOf(tc.runs, r.Paper.Trainer))
				seg, _ := naiveMeanStd(segmentErrors[r.Paper.Trainer])
				d, ok := r.Diff("segment_error")
				if ok != tc.segment || (ok && math.Abs(d-(seg-r.Paper.Metrics["segment_error"])) > 1e-9) {
					t.Errorf("%s: segment error diff %v, %v; want ours %v - paper %v (%v)", r.Paper.Trainer, d, ok, seg, r.Paper.Metrics["segment_error"], tc.segment)
				}
				d, ok = r.Diff("token_error")
				switch r.Paper.Trainer {
				case "slack":
					if !ok || math.Abs(d-(tok-9)) > 1e-9 {
						t.Errorf("slack: token error diff %v, %v; want our token error %v - 9", d, ok, tok)
					}
				default:
					if ok {
						t.Errorf("%s: token error diff %v against a paper that gives only a segment error", r.Paper.Trainer, d)
					}
				}
			}
			var buf bytes.Buffer
			if err := pt.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			// token error, segment error, attachment error (the parsing
			// row), span F1.
			want := []string{"cora", "segmentation", "margin", "4", "-", "-", "-", "12.3±0.3", "17.7", "-5.4", "-", "-", "-", "88.6±0.1", "81.8", "+6.8"}
			if !tc.segment {
				want[7], want[9] = "-", "-"
			}
			found := false
			for _, line := range strings.Split(buf.String(), "\n") {
				if c := cellsOf(line); len(c) > 2 && c[0] == "cora" && c[1] == "segmentation" && c[2] == "margin" {
					found = true
					if !slices.Equal(c, want) {
						t.Errorf("paper.txt margin line %q, want %q", c, want)
					}
				}
			}
			if !found {
				t.Errorf("paper.txt has no cora/segmentation margin line:\n%s", buf.String())
			}
		})
	}
}

func tokensOf(runs []Run, trainer string) []float64 {
	tok, _ := runsOf(runs, "cora", "segmentation", trainer)
	return tok
}

// The comparison with a paper's segment errors, in every format
// (testdata/segment, checked by eye when written).
func TestSegmentPaperRenderings(t *testing.T) {
	dir := t.TempDir()
	spec := legacySpec()
	paper := segmentPaper()
	spec.Paper = &paper
	if err := WriteAll(dir, segmentRuns(), spec); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, dir, "segment-paper", []string{"paper.txt", "paper.md", "paper.csv", "index.html"})
}

func TestFigureSegmentError(t *testing.T) {
	partial := segmentRuns()
	delete(partial[slices.IndexFunc(partial, func(r Run) bool { return r.Metrics["segment_error"] > 0 })].Metrics, "segment_error")
	for _, tc := range []struct {
		name string
		runs []Run
		task string
		err  string
	}{
		{"segment runs", segmentRuns(), "segmentation", ""},
		{"old runs", legacyRuns(), "segmentation", "12 of the 12 runs of cora/segmentation have no segment error"},
		{"some old runs", partial, "segmentation", "1 of the 12 runs"},
		{"sequence task", segmentRuns(), "sequence", "runs of cora/sequence have no segment error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := FigureSpec{Name: "seg", Dataset: "cora", Task: tc.task, X: XTrainFraction, Y: "segment_error"}
			fig, err := buildFigure(tc.runs, f, fixtureOptions().Trainers)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := fig.plot.Y.Label.Text; got != "segment error (%)" {
				t.Errorf("Y label %q", got)
			}
			if len(fig.series) != 3 {
				t.Fatalf("%d lines, want margin, slack and poslearn", len(fig.series))
			}
			for _, s := range fig.series {
				mean, _ := naiveMeanStd(segmentErrors[s.trainer])
				if got := s.data.XYs[0].Y; math.Abs(got-mean) > 1e-9 {
					t.Errorf("%s: plotted %v, want mean segment error %v", s.trainer, got, mean)
				}
			}
		})
	}
}

// A segment error figure without a task is drawn for the tasks that have
// a segment error, keeping its name when that is one task.
func TestExpandSegmentErrorFigure(t *testing.T) {
	f := FigureSpec{Name: "seg", Dataset: "cora", X: XTrainFraction, Y: "segment_error"}
	for _, tc := range []struct {
		name string
		runs []Run
		want []string // name/task
	}{
		{"segment runs", segmentRuns(), []string{"seg/segmentation"}},
		{"old runs", legacyRuns(), []string{"seg-segmentation/segmentation", "seg-sequence/sequence"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			figs, err := ExpandFigures(tc.runs, []FigureSpec{f})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range figs {
				got = append(got, g.Name+"/"+g.Task)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("figures %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := buildFigure(segmentRuns(), f, nil); err != nil {
		t.Errorf("figure without task: %v", err)
	}
}
