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
			r.SegmentError = segmentErrors[r.Trainer][r.Split]
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
	if !tab.Segment {
		t.Fatal("Table.Segment not set")
	}
	seq := rowOf(t, tab, "sequence")
	if seq.Segment {
		t.Error("sequence row is a Segment row")
	}
	row := rowOf(t, tab, "segmentation")
	if !row.Segment {
		t.Fatal("segmentation row is not a Segment row")
	}
	best, tokenBest := map[string]bool{}, map[string]bool{}
	for _, c := range row.Cells {
		if c.N == 0 {
			if c.Text != "-" || c.TokenText != "-" {
				t.Errorf("%s: empty cell %q / %q", c.Trainer, c.Text, c.TokenText)
			}
			continue
		}
		mean, std := naiveMeanStd(segmentErrors[c.Trainer])
		if math.Abs(c.SegmentError.Mean-mean) > 1e-9 || math.Abs(c.SegmentError.Std-std) > 1e-9 {
			t.Errorf("%s: segment error %+v, want %v±%v", c.Trainer, c.SegmentError, mean, std)
		}
		if !strings.HasPrefix(c.Text, formatMeanStd(mean, std)+"/") {
			t.Errorf("%s: text %q, want it to start with the segment error %s", c.Trainer, c.Text, formatMeanStd(mean, std))
		}
		if want := formatMeanStd(c.TokenError.Mean, c.TokenError.Std); c.TokenText != want {
			t.Errorf("%s: token text %q, want %q", c.Trainer, c.TokenText, want)
		}
		best[c.Trainer], tokenBest[c.Trainer] = c.Best, c.TokenBest
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
	opt.Metric = SpanF1
	f1, err := Summarize(segmentRuns(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rowOf(t, f1, "segmentation").Cells {
		if c.Best != (c.Trainer == "margin") || c.TokenBest != (c.Trainer == "margin") {
			t.Errorf("span F1 metric: %s best %v, token best %v", c.Trainer, c.Best, c.TokenBest)
		}
	}
}

func formatMeanStd(mean, std float64) string {
	return strings.TrimSpace(cellText(Cell{N: 2, TokenError: Stat{mean, std}}, true, false, 2, 1))
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
// rerun) shows token error, as before, and says why.
func TestSummarizePartialSegmentError(t *testing.T) {
	runs := segmentRuns()
	runs[slices.IndexFunc(runs, func(r Run) bool { return r.SegmentError > 0 })].SegmentError = 0
	tab := segmentTable(t, runs)
	if tab.Segment || rowOf(t, tab, "segmentation").Segment {
		t.Error("a row with a run lacking segment error is a Segment row")
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
	if pt.Err != nil || !pt.Segment {
		t.Fatalf("test %+v", pt)
	}
	want, err := PairedTTest(segmentErrors["poslearn"], segmentErrors["margin"])
	if err != nil {
		t.Fatal(err)
	}
	if pt.SegmentError.MeanDiff != want.MeanDiff || pt.SegmentError.T != want.T || pt.SegmentError.P != want.P {
		t.Errorf("segment error test %+v, want %+v", pt.SegmentError, want)
	}
	if pt.TokenError.N != 4 || pt.SpanF1.N != 4 {
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
		PaperValue{Dataset: "cora", Task: "segmentation", Trainer: "margin", SegmentError: ptr(17.7), SpanF1: ptr(81.8)},
		PaperValue{Dataset: "cora", Task: "segmentation", Trainer: "slack", SegmentError: ptr(17.4), TokenError: ptr(9), SpanF1: ptr(81.9)},
		PaperValue{Dataset: "cora", Task: "segmentation", Trainer: "poslearn", SegmentError: ptr(16.2)},
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
			if !pt.Segment {
				t.Fatal("PaperTable.Segment not set")
			}
			for _, r := range pt.Rows {
				if r.Paper.Task != "segmentation" || r.Paper.Dataset != "cora" {
					continue
				}
				tok, _ := naiveMeanStd(tokensOf(tc.runs, r.Paper.Trainer))
				seg, _ := naiveMeanStd(segmentErrors[r.Paper.Trainer])
				d, ok := r.Diff(SegmentError)
				if ok != tc.segment || (ok && math.Abs(d-(seg-*r.Paper.SegmentError)) > 1e-9) {
					t.Errorf("%s: segment error diff %v, %v; want ours %v - paper %v (%v)", r.Paper.Trainer, d, ok, seg, *r.Paper.SegmentError, tc.segment)
				}
				d, ok = r.Diff(TokenError)
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
			want := []string{"cora", "segmentation", "margin", "4", "-", "-", "-", "12.3±0.3", "17.7", "-5.4", "88.6±0.1", "81.8", "+6.8"}
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
	partial[slices.IndexFunc(partial, func(r Run) bool { return r.SegmentError > 0 })].SegmentError = 0
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
			f := FigureSpec{Name: "seg", Dataset: "cora", Task: tc.task, X: XTrainFraction, Y: YSegmentError}
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
	f := FigureSpec{Name: "seg", Dataset: "cora", X: XTrainFraction, Y: YSegmentError}
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
