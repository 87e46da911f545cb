package features

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/maxmargin/repro/datasets"
)

func TestNERAttributes(t *testing.T) {
	tokens := []string{"Mr.", "McDonald", "visited", "U.S.", "in", "1995-96", "."}
	pos := []string{"NNP", "NNP", "VBD", "NNP", "IN", "CD", "."}
	attrs := NER(tokens, [][]string{pos}, []string{"pos"}, DefaultNEROptions())
	if len(attrs) != len(tokens) {
		t.Fatalf("%d token attribute lists for %d tokens", len(attrs), len(tokens))
	}
	tests := []struct {
		token      int
		want, none []string
	}{
		{0, []string{"bias", "w=Mr.", "lw=mr.", "shape=Xx.", "initcap", "first", "pos=NNP", "-1:BOS", "-2:BOS", "+1:lw=mcdonald", "+2:pos=VBD", "bi-1=<s>|mr.", "bi+1=mr.|mcdonald", "p1=m", "s2=r."}, []string{"allcaps", "mixedcaps"}},
		{1, []string{"mixedcaps", "initcap", "shape=XxXxxxxx", "cshape=XxXx", "p4=mcdo", "s4=nald", "-1:w=Mr.", "+1:shape=xxxxxxx"}, []string{"first", "allcaps", "p5=mcdon"}},
		{3, []string{"allcaps", "shape=X.X.", "cshape=X.X."}, []string{"mixedcaps"}},
		{5, []string{"hasdigit", "hyphen", "shape=dddd-dd"}, []string{"alldigits", "punct"}},
		{6, []string{"punct", "+1:EOS", "+2:EOS", "bi+1=.|</s>", "-2:lw=in"}, []string{"initcap", "hasdigit"}},
	}
	for _, tt := range tests {
		got := attrs[tt.token]
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("token %q lacks %q: %v", tokens[tt.token], w, got)
			}
		}
		for _, w := range tt.none {
			if slices.Contains(got, w) {
				t.Errorf("token %q has %q", tokens[tt.token], w)
			}
		}
	}
	// Options switch the window and the affixes off.
	bare := NER(tokens, nil, nil, NEROptions{})
	for _, a := range bare[1] {
		if a[0] == '-' || a[0] == '+' || a[0] == 'p' && a[1] != 'u' || a[0] == 's' && a[1] != 'h' {
			t.Errorf("window and affixes off, yet %q", a)
		}
	}
}

func TestBuildIndexMinCount(t *testing.T) {
	seqs := [][][]string{{{"a", "b"}, {"a", "c"}}, {{"d", "c", "a"}}}
	if got := BuildIndexMinCount(seqs, 1); got.Len() != BuildIndex(seqs).Len() {
		t.Errorf("min count 1 keeps %d attributes, BuildIndex %d", got.Len(), BuildIndex(seqs).Len())
	}
	x := BuildIndexMinCount(seqs, 2)
	if x.Len() != 2 || x.Name(0) != "a" || x.Name(1) != "c" {
		t.Errorf("min count 2: %d attributes %v", x.Len(), x.names)
	}
	if x := BuildIndexMinCount(seqs, 4); x.Len() != 0 {
		t.Errorf("min count 4 keeps %v", x.names)
	}
}

// Reading and featurising CoNLL-2003's eng.train (issue 15's target: under
// 5 s). It skips without REPRO_DATA.
func BenchmarkNERConll2003Train(b *testing.B) {
	dir := os.Getenv(datasets.EnvDataDir)
	path := filepath.Join(dir, "conll2003", "eng.train")
	if _, err := os.Stat(path); dir == "" || err != nil {
		b.Skip("needs REPRO_DATA with conll2003/eng.train")
	}
	f := datasets.CoNLLFormat{Columns: []string{"word", "pos", "chunk", "label"}, Scheme: datasets.IOB1, Repair: true}
	for b.Loop() {
		start := time.Now()
		c, _, err := datasets.LoadCoNLL(path, f)
		if err != nil {
			b.Fatal(err)
		}
		var all [][][]string
		tokens := 0
		for _, s := range c.Sequences {
			all = append(all, NER(s.Tokens, s.Columns, []string{"pos", "chunk"}, DefaultNEROptions()))
			tokens += len(s.Tokens)
		}
		elapsed := time.Since(start)
		x, x2 := BuildIndex(all), BuildIndexMinCount(all, 2)
		b.ReportMetric(float64(tokens), "tokens")
		b.ReportMetric(float64(x.Len()), "attrs")
		b.ReportMetric(float64(x2.Len()), "attrs(min2)")
		b.ReportMetric(elapsed.Seconds(), "read+featurise-s")
	}
}
