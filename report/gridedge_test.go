package report

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// edgeRuns are margin and crf runs on cora/sequence over 4 splits, with a
// C grid of 0.01, 0.1 and 1 (crf split 3: a grid cut to 0.1 and 1). margin
// chooses 0.01 in splits 0 and 1 and 0.1 otherwise; crf chooses 1 in
// splits 0 and 3 and 0.1 in the others. Both also select beta from a
// single value, which is no grid.
func edgeRuns() []Run {
	grid := func(cs ...float64) []Candidate {
		var sel []Candidate
		for _, c := range cs {
			sel = append(sel, Candidate{Params: map[string]float64{"C": c, "beta": 1}})
		}
		return sel
	}
	var runs []Run
	add := func(trainer string, split int, chosen float64, sel []Candidate) {
		runs = append(runs, Run{
			Key: trainer + string(rune('0'+split)), Dataset: "cora", Task: "sequence", Trainer: trainer,
			Split: split, TrainFraction: 0.5, Metrics: map[string]float64{"token_error": 10, "span_f1": 80},
			Params: map[string]float64{"C": chosen, "beta": 1}, Selection: sel,
		})
	}
	for s, c := range []float64{0.01, 0.01, 0.1, 0.1} {
		add("margin", s, c, grid(0.01, 0.1, 1))
	}
	for s, c := range []float64{1, 0.1, 0.1} {
		add("crf", s, c, grid(0.01, 0.1, 1))
	}
	add("crf", 3, 1, grid(0.1, 1))
	add("poslearn", 0, 1, nil) // no selection: nothing to flag
	return runs
}

func TestGridEdges(t *testing.T) {
	got := GridEdges(edgeRuns())
	want := []EdgeNote{
		{Label: "cora/sequence", Trainer: "crf", Param: "C", Splits: 4, High: 2, HighValues: []float64{1}},
		{Label: "cora/sequence", Trainer: "margin", Param: "C", Splits: 4, Low: 2, LowValues: []float64{0.01}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("GridEdges =\n%+v\nwant\n%+v", got, want)
	}
	for i, s := range []string{
		"cora/sequence crf: C at the edge of its grid in 2/4 splits: high 2 (C = 1)",
		"cora/sequence margin: C at the edge of its grid in 2/4 splits: low 2 (C = 0.01)",
	} {
		if got[i].String() != s {
			t.Errorf("note %d = %q, want %q", i, got[i], s)
		}
	}
	both := EdgeNote{Label: "a/b/0.25", Trainer: "t", Param: "C", Splits: 10, Low: 1, High: 3,
		LowValues: []float64{0.001}, HighValues: []float64{10, 100}}
	if s, want := both.String(), "a/b/0.25 t: C at the edge of its grid in 4/10 splits: low 1 (C = 0.001), high 3 (C = 10, 100)"; s != want {
		t.Errorf("String = %q, want %q", s, want)
	}
	if notes := GridEdges(fixtureRuns()); len(notes) != 0 {
		t.Errorf("fixture runs (one-value grids): %v, want no notes", notes)
	}
}

// Cells with an edge choice carry the mark, and every rendering lists the
// notes under the table in column order.
func TestTableGridEdges(t *testing.T) {
	tab, err := Summarize(edgeRuns(), Options{Trainers: []string{"margin", "crf", "poslearn"}})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, c := range tab.Rows[0].Cells {
		texts = append(texts, c.Text)
	}
	if want := []string{"10.0±0.0/80.0±0.0†", "10.0±0.0/80.0±0.0†", "10.0/80.0 (n=1)"}; !reflect.DeepEqual(texts, want) {
		t.Errorf("cells %q, want %q", texts, want)
	}
	if len(tab.Edges) != 2 || tab.Edges[0].Trainer != "margin" || tab.Edges[1].Trainer != "crf" {
		t.Errorf("Edges %v, want margin then crf (column order)", tab.Edges)
	}
	margin := "cora/sequence margin: C at the edge of its grid in 2/4 splits: low 2 (C = 0.01)"
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer) error
		want  []string
	}{
		{"text", func(b *bytes.Buffer) error { return tab.WriteText(b) }, []string{edgeTitle + "\n  " + margin + "\n", "0.0†*"}},
		{"markdown", func(b *bytes.Buffer) error { return tab.WriteMarkdown(b) }, []string{"\n" + edgeTitle + "\n\n- " + margin + "\n"}},
		{"latex", func(b *bytes.Buffer) error { return tab.WriteLaTeX(b) }, []string{"% " + edgeTitle + "\n%   " + margin + "\n", `0.0\dag{}`}},
	} {
		var buf bytes.Buffer
		if err := tc.write(&buf); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%s lacks %q:\n%s", tc.name, w, buf.String())
			}
		}
	}
	dir := t.TempDir()
	if err := WriteAll(dir, edgeRuns(), Spec{}); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"<li>" + margin + "</li>", "10.0±0.0/80.0±0.0†</td>"} {
		if !strings.Contains(string(index), w) {
			t.Errorf("index.html lacks %q", w)
		}
	}
}
