package features

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// attrsOf returns the attributes of a lone token without neighbours.
func attrsOf(tok string) []string {
	return Extract([]string{tok}, Options{Affixes: 3})[0]
}

func TestTemplatesFire(t *testing.T) {
	tests := []struct {
		tok    string
		want   []string
		absent []string
	}{
		{"1992.", []string{"year", "alldigits", "hasdigit", "endperiod", "w=1992", "raw=1992.", "shape=dddd.", "cshape=d."}, []string{"range", "initcap"}},
		{"1992a,", []string{"year", "endcomma"}, []string{"alldigits"}},
		{"(1995).", []string{"year", "startparen", "endperiod", "w=1995"}, nil},
		{"1899", nil, []string{"year"}},
		{"127-136,", []string{"range", "hasdash", "endcomma"}, []string{"year"}},
		{"5--9.", []string{"range"}, nil},
		{"pp.127-136", []string{"range", "ppnum"}, []string{"year"}},
		{"pp.", []string{"lex=pages", "w=pp"}, []string{"ppnum"}},
		{"Proc.", []string{"lex=proc", "initcap", "w=proc", "shape=Xxxx.", "cshape=Xx.", "pre=p", "pre=pr", "pre=pro", "suf=c", "suf=oc", "suf=roc"}, []string{"allcaps", "initial"}},
		{"In", []string{"lex=proc", "initcap"}, nil},
		{"J.", []string{"initial", "initcap", "endperiod"}, []string{"allcaps"}},
		{"A", []string{"initial"}, nil},
		{"W.-P.", []string{"initial", "hasdash"}, nil},
		{"Ph.D.", []string{"lex=thesis"}, []string{"initial"}},
		{"IEEE", []string{"allcaps", "initcap"}, []string{"initial", "roman"}},
		{"XII,", []string{"roman", "allcaps"}, nil},
		{"4(2):", []string{"volnum", "endpunct", "hasdigit"}, nil},
		{"12(3-4)", []string{"volnum"}, nil},
		{"Vol.", []string{"lex=volume"}, nil},
		{"Eds.,", []string{"lex=editor"}, nil},
		{"Press;", []string{"lex=publisher", "endpunct"}, []string{"endperiod"}},
		{"Univ.", []string{"lex=institution"}, nil},
		{"TR-94-12", []string{"hasdash", "hasdigit"}, nil},
		{"Report", []string{"lex=tech"}, nil},
		{"Trans.", []string{"lex=journal"}, nil},
		{"Sept.", []string{"lex=month"}, nil},
		{"&", []string{"lex=and", "w=&", "endpunct"}, nil},
		{"al.", []string{"lex=and"}, nil},
		{"\"Finding", []string{"startquote", "w=finding"}, nil},
		{"Moto-oka.", []string{"hasdash"}, nil},
		{"smith@cs.edu", []string{"email"}, nil},
		{"http://www.cs.cmu.edu/", []string{"url"}, nil},
		{"Über", []string{"initcap", "w=über", "shape=Xxxx", "pre=ü"}, nil},
		{"-", []string{"w=-", "shape=-", "hasdash"}, []string{"pre=-"}},
	}
	for _, tt := range tests {
		t.Run(tt.tok, func(t *testing.T) {
			got := attrsOf(tt.tok)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %q in %q", w, got)
				}
			}
			for _, a := range tt.absent {
				if slices.Contains(got, a) {
					t.Errorf("unexpected %q in %q", a, got)
				}
			}
		})
	}
}

func TestExtractExactOrder(t *testing.T) {
	got := Extract([]string{"In", "Proc."}, Options{Window: 1, Affixes: 1})
	want := [][]string{
		{"bias", "w=in", "raw=in", "shape=Xx", "cshape=Xx", "initcap", "lex=proc", "pre=i", "suf=n", "pos=q0", "BOS",
			"-1:BOS", "+1:w=proc", "+1:raw=proc.", "+1:shape=Xxxx.", "+1:cshape=Xx.", "+1:initcap", "+1:endperiod", "+1:lex=proc"},
		{"bias", "w=proc", "raw=proc.", "shape=Xxxx.", "cshape=Xx.", "initcap", "endperiod", "lex=proc", "pre=p", "suf=c", "pos=q2", "EOS",
			"-1:w=in", "-1:raw=in", "-1:shape=Xx", "-1:cshape=Xx", "-1:initcap", "-1:lex=proc", "+1:EOS"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Extract:\n got %q\nwant %q", got, want)
	}
}

func TestExtractWindow(t *testing.T) {
	toks := []string{"In", "Proc.", "AAAI,", "1992."}
	tests := []struct {
		window int
		t      int
		want   []string
		absent []string
	}{
		{1, 0, []string{"-1:BOS", "+1:w=proc", "+1:lex=proc", "pos=q0", "BOS"}, []string{"-2:BOS", "+2:year", "+1:pre=p", "+1:bias", "+1:pos=q1"}},
		{1, 3, []string{"+1:EOS", "-1:w=aaai", "-1:allcaps", "pos=q3", "EOS"}, []string{"-2:lex=proc"}},
		{2, 0, []string{"-2:BOS", "-1:BOS", "+2:allcaps", "+1:lex=proc"}, []string{"+3:year"}},
		{2, 2, []string{"-2:lex=proc", "-1:lex=proc", "+1:year", "+2:EOS"}, nil},
		{0, 1, []string{"lex=proc"}, []string{"-1:lex=proc", "+1:allcaps", "-1:BOS"}},
		{-3, 1, []string{"lex=proc"}, []string{"-1:lex=proc"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("w%d/t%d", tt.window, tt.t), func(t *testing.T) {
			got := Extract(toks, Options{Window: tt.window, Affixes: 3})[tt.t]
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %q in %q", w, got)
				}
			}
			for _, a := range tt.absent {
				if slices.Contains(got, a) {
					t.Errorf("unexpected %q", a)
				}
			}
		})
	}
}

func TestExtractDeterministicNoDuplicates(t *testing.T) {
	toks := strings.Fields(sampleReference)
	for _, opt := range []Options{DefaultOptions(), {Window: 3, Affixes: 5}, {}} {
		a, b := Extract(toks, opt), Extract(slices.Clone(toks), opt)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%+v: two runs differ", opt)
		}
		for i, attrs := range a {
			seen := map[string]bool{}
			for _, x := range attrs {
				if seen[x] {
					t.Fatalf("%+v: token %d (%q) repeats %q", opt, i, toks[i], x)
				}
				seen[x] = true
			}
		}
	}
	if got := Extract(nil, DefaultOptions()); len(got) != 0 {
		t.Errorf("Extract(nil) = %v", got)
	}
}

// sampleReference is a 30-token Cora-like reference with repeated words, so
// duplicate neighbour attributes would show up.
const sampleReference = `A. Cau, R. Kuiper, and W.-P. de Roever. Formalising Dijkstra's development ` +
	`strategy within Stark's formalism. In C. B. Jones, editors, Proc. 5th. BCS-FACS ` +
	`Workshop, pp. 127-136, vol. 4(2), Springer, 1992.`

func BenchmarkExtract(b *testing.B) {
	toks := strings.Fields(sampleReference)
	if len(toks) != 30 {
		b.Fatalf("sample has %d tokens, want 30", len(toks))
	}
	opt := DefaultOptions()
	b.ReportAllocs()
	for b.Loop() {
		Extract(toks, opt)
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{sampleReference, "", "\xff (1995). pp.1-2 W.-P. 4(2):"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, text string, window int) {
		toks := strings.Fields(text)
		out := Extract(toks, Options{Window: window % 4, Affixes: 3})
		if len(out) != len(toks) {
			t.Fatalf("%d attribute lists for %d tokens", len(out), len(toks))
		}
		for _, attrs := range out {
			if len(attrs) != len(slices.Compact(slices.Sorted(slices.Values(attrs)))) {
				t.Fatalf("duplicates in %q", attrs)
			}
		}
	})
}

// NoLexicons drops exactly the lex= attributes, the token's and its
// neighbours'.
func TestExtractNoLexicons(t *testing.T) {
	tokens := []string{"Proc.", "of", "the", "IEEE", "Conference", "1995."}
	with := Extract(tokens, DefaultOptions())
	opt := DefaultOptions()
	opt.NoLexicons = true
	without := Extract(tokens, opt)
	dropped := 0
	for i := range with {
		var kept []string
		for _, a := range with[i] {
			if strings.Contains(a, "lex=") {
				dropped++
				continue
			}
			kept = append(kept, a)
		}
		if !slices.Equal(kept, without[i]) {
			t.Errorf("token %d: without lexicons %v, want %v", i, without[i], kept)
		}
	}
	if dropped == 0 {
		t.Error("the example has no lexicon attributes to drop")
	}
}
