package report

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/maxmargin/repro/metrics"
)

// signSentence is one test sentence of the cfg fixture: its gold brackets
// and, for each trainer, its predicted and matched brackets and whether
// the tree is exact.
type signSentence struct {
	gold            int
	predA, matchedA int
	exactA          bool
	predB, matchedB int
	exactB          bool
	fold            int
}

// signSentences are seven sentences in three folds of 2, 3 and 2, svm
// (A) against pcfg (B). By hand, sentence F1 = 2·matched/(gold+pred):
// svm is better on 3 (s0, s4, s5), pcfg on 1 (s2), 3 ties; the exact tree
// is svm's alone on 2 (s0, s4), pcfg's alone on 1 (s2), 4 ties.
var signSentences = []signSentence{
	{gold: 3, predA: 3, matchedA: 3, exactA: true, predB: 2, matchedB: 2, fold: 0},               // 100 vs 80
	{gold: 4, predA: 2, matchedA: 2, predB: 2, matchedB: 2, fold: 0},                             // 66.7 each
	{gold: 2, predA: 2, matchedA: 1, predB: 2, matchedB: 2, exactB: true, fold: 1},               // 50 vs 100
	{gold: 5, predA: 5, matchedA: 5, exactA: true, predB: 5, matchedB: 5, exactB: true, fold: 1}, // both exact
	{gold: 3, predA: 3, matchedA: 3, exactA: true, predB: 4, matchedB: 3, fold: 1},               // 100 vs 85.7
	{gold: 2, predA: 2, matchedA: 1, predB: 3, matchedB: 1, fold: 2},                             // 50 vs 40
	{gold: 1, predA: 1, matchedA: 1, exactA: true, predB: 1, matchedB: 1, exactB: true, fold: 2}, // both exact
}

// signRuns are the runs of the sentences' folds (only those listed),
// their metrics computed from their outcomes, and constraints for both.
func signRuns(folds ...int) []Run {
	var runs []Run
	for _, k := range folds {
		for _, tr := range []string{"svm", "pcfg"} {
			var o Outcomes
			exact, matched, brackets := 0, 0, 0
			for _, s := range signSentences {
				if s.fold != k {
					continue
				}
				pred, m, ex := s.predA, s.matchedA, s.exactA
				if tr == "pcfg" {
					pred, m, ex = s.predB, s.matchedB, s.exactB
				}
				o.Add([]bool{ex}, s.gold, pred, m)
				if ex {
					exact++
				}
				matched, brackets = matched+m, brackets+s.gold+pred
			}
			n := len(o.Tokens)
			runs = append(runs, Run{
				Key: tr + string(rune('0'+k)), Dataset: "wsj", Task: "cfg", Trainer: tr, Split: k, TrainFraction: 1, TestSize: n,
				Metrics: map[string]float64{
					metrics.TreeAccuracy: 100 * float64(exact) / float64(n),
					metrics.BracketF1:    200 * float64(matched) / float64(brackets),
					metrics.Constraints:  float64(k * k * len(tr)), // svm 3k², pcfg 4k²: diffs 0, −1, −4
				},
				Outcomes: &o,
			})
		}
	}
	return runs
}

func signOptions(folds *Folds) Options {
	return Options{Trainers: []string{"pcfg", "svm"}, Comparisons: []Comparison{{A: "svm", B: "pcfg"}}, Folds: folds}
}

func TestSignTestsPooledOverFolds(t *testing.T) {
	t.Parallel()
	folds := &Folds{TestItems: []int{2, 3, 2}}
	tab, err := Summarize(signRuns(0, 1, 2), signOptions(folds))
	if err != nil {
		t.Fatal(err)
	}
	pt := tab.Tests[0]
	if pt.Err != nil || pt.SignErr != nil || len(pt.TTests) == 0 {
		t.Fatalf("tests %+v", pt)
	}
	// By hand (signSentences): p = 2·P(X ≤ 1) for X ~ Bin(3, ½), capped:
	// 1; and for Bin(4, ½): 2·5/16.
	want := []MetricSign{
		{metrics.TreeAccuracy, SignTest{Items: 7, Splits: 3, BetterA: 2, BetterB: 1, Ties: 4, P: 1}},
		{metrics.BracketF1, SignTest{Items: 7, Splits: 3, BetterA: 3, BetterB: 1, Ties: 3, P: 10.0 / 16}},
	}
	if len(pt.Signs) != len(want) {
		t.Fatalf("signs %+v, want %+v", pt.Signs, want)
	}
	for i, w := range want {
		got := pt.Signs[i]
		if got.Metric != w.Metric || got.Items != w.Items || got.Splits != w.Splits || got.BetterA != w.BetterA ||
			got.BetterB != w.BetterB || got.Ties != w.Ties || !near(got.P, w.P, 1e-12) {
			t.Errorf("sign %d: %+v, want %+v", i, got, w)
		}
	}
	if st, ok := pt.SignOf(metrics.BracketF1); !ok || st.BetterA != 3 {
		t.Errorf("SignOf(bracket_f1) = %+v, %v", st, ok)
	}

	line := "svm vs pcfg (wsj/cfg): sentence bracket F1 higher for svm on 3, for pcfg on 1, tied on 3 of 7 sentences (3 folds), p=0.62"
	tree := "svm vs pcfg (wsj/cfg): sentence exact-tree accuracy higher for svm on 2, for pcfg on 1, tied on 4 of 7 sentences (3 folds), p=1"
	// Constraints are a count: their difference carries no "points", and
	// the t-tests' title says that units vary.
	constraints := "svm vs pcfg (wsj/cfg): constraints diff -1.67, t="
	for _, f := range renderings(t, tab) {
		for _, want := range []string{signTitle, tree, line, testsTitleUnits, constraints, "exact-tree accuracy diff +"} {
			if !strings.Contains(f.text, want) {
				t.Errorf("%s lacks %q:\n%s", f.name, want, f.text)
			}
		}
		if strings.Index(f.text, signTitle) < strings.Index(f.text, testsTitleUnits) {
			t.Errorf("%s: the pooled tests come before the t-tests", f.name)
		}
	}
}

// near reports whether x and y differ by at most tol.
func near(x, y, tol float64) bool { return x-y <= tol && y-x <= tol }

type rendered struct{ name, text string }

// renderings are the text, Markdown, LaTeX and HTML forms of tab, the
// HTML unescaped.
func renderings(t *testing.T, tab *Table) []rendered {
	t.Helper()
	var out []rendered
	for _, w := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"text", func(b *bytes.Buffer) error { return tab.WriteText(b) }},
		{"markdown", func(b *bytes.Buffer) error { return tab.WriteMarkdown(b) }},
		{"latex", func(b *bytes.Buffer) error { return tab.WriteLaTeX(b) }},
		{"html", func(b *bytes.Buffer) error {
			page, err := newIndexPage(t.TempDir(), nil, Spec{Title: "signs"}, tab, nil, nil)
			if err != nil {
				return err
			}
			return indexTemplate().Execute(b, page)
		}},
	} {
		var b bytes.Buffer
		if err := w.write(&b); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		if w.name == "html" {
			text = html.UnescapeString(text) // &#39; and &#43; as written
		}
		out = append(out, rendered{w.name, text})
	}
	return out
}

// Without folds, or where the runs do not match them, nothing is pooled;
// a mismatch says why.
func TestSignTestsNeedFolds(t *testing.T) {
	t.Parallel()
	noOutcomes := signRuns(0, 1, 2)
	noOutcomes[3].Outcomes = nil // pcfg's fold 1
	tests := []struct {
		name    string
		runs    []Run
		folds   *Folds
		wantErr string // in the pooled block; "" means no block at all
	}{
		{"no folds", signRuns(0, 1, 2), nil, ""},
		{"other test parts", signRuns(0, 1, 2), &Folds{TestItems: []int{2, 2, 3}}, "svm's run of split 1 has outcomes of 3 items, but the fold tests 2"},
		{"fewer folds", signRuns(0, 1, 2), &Folds{TestItems: []int{2, 3}}, "split 2 is not one of the 2 folds"},
		{"no outcomes", noOutcomes, &Folds{TestItems: []int{2, 3, 2}}, "pcfg's run of split 1 kept no per-item outcomes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := Summarize(tt.runs, signOptions(tt.folds))
			if err != nil {
				t.Fatal(err)
			}
			pt := tab.Tests[0]
			if len(pt.Signs) != 0 || len(pt.TTests) == 0 {
				t.Errorf("signs %+v, t-tests %+v", pt.Signs, pt.TTests)
			}
			for _, f := range renderings(t, tab) {
				has := strings.Contains(f.text, signTitle)
				if has != (tt.wantErr != "") || !strings.Contains(f.text, "not pooled: "+tt.wantErr) && tt.wantErr != "" {
					t.Errorf("%s: pooled block %v, want the error %q:\n%s", f.name, has, tt.wantErr, f.text)
				}
			}
		})
	}
	if _, err := Summarize(signRuns(0, 1), signOptions(&Folds{})); err == nil {
		t.Error("folds without splits accepted")
	}
}

// Rows whose metrics declare no sign test (every task but cfg) get none
// with folds either, and render as they did: the tables of every other
// task do not change.
func TestSignTestsOnlyWhereDeclared(t *testing.T) {
	t.Parallel()
	runs := fixtureRuns()
	opt := fixtureOptions()
	with := opt
	with.Folds = &Folds{TestItems: []int{1, 1, 1, 1, 1, 1}}
	a, err := Summarize(runs, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Summarize(runs, with)
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := renderings(t, a), renderings(t, b)
	for i := range ra {
		if ra[i].text != rb[i].text {
			t.Errorf("%s: folds change a table without sign tests:\n%s\n%s", ra[i].name, ra[i].text, rb[i].text)
		}
	}
}

// On one split McNemar's difference is the tested metric's: exact-tree
// accuracy, a score, reads A − B of the accuracy.
func TestSingleSplitMcNemarDiffOfAScore(t *testing.T) {
	t.Parallel()
	tab, err := Summarize(signRuns(0), signOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	// Fold 0: svm's tree exact on s0, pcfg's on neither: 50 − 0.
	want := "svm vs pcfg (wsj/cfg): exact-tree accuracy diff +50.00 points, McNemar exact p=1 (only svm right 1, only pcfg right 0, of 2 tokens;"
	for _, f := range renderings(t, tab) {
		if !strings.Contains(f.text, want) {
			t.Errorf("%s lacks %q:\n%s", f.name, want, f.text)
		}
	}
}

// Readings quote a pooled sign test with the template function sign.
func TestReadingsQuoteSignTests(t *testing.T) {
	t.Parallel()
	pooled, err := Summarize(signRuns(0, 1, 2), signOptions(&Folds{TestItems: []int{2, 3, 2}}))
	if err != nil {
		t.Fatal(err)
	}
	mismatched, err := Summarize(signRuns(0, 1, 2), signOptions(&Folds{TestItems: []int{2, 2, 3}}))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text string
		table      *Table
		want       string // output, or a substring of the error
		fails      bool
	}{
		{"counts and p", `{{with sign "" "wsj/cfg" "svm" "pcfg" "bracket_f1"}}{{.A}} {{.B}} {{.Ties}} {{.Items}} {{.Splits}} {{.P}}{{end}}`, pooled, "3 1 3 7 3 0.62", false},
		{"exact trees", `{{(sign "" "wsj/cfg" "svm" "pcfg" "tree_accuracy").A}}/{{(sign "" "wsj/cfg" "svm" "pcfg" "tree_accuracy").B}}`, pooled, "2/1", false},
		{"a metric without one", `{{(sign "" "wsj/cfg" "svm" "pcfg" "constraints").P}}`, pooled, "has no sign test of constraints", true},
		{"no such comparison", `{{(sign "" "wsj/cfg" "pcfg" "svm" "bracket_f1").P}}`, pooled, "no comparison pcfg vs svm on row wsj/cfg", true},
		{"not pooled", `{{(sign "" "wsj/cfg" "svm" "pcfg" "bracket_f1").P}}`, mismatched, "was not pooled: svm's run of split 1 has outcomes of 3 items", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &PageDir{Reading: Reading{Dir: "signs"}, Table: tt.table}
			got, err := d.execute(nil, "body", tt.text)
			switch {
			case tt.fails && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one containing %q", err, tt.want)
			case !tt.fails && (err != nil || got != tt.want):
				t.Errorf("%q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
