package datasets

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadPhraseTrees(t *testing.T) {
	const in = "\n( (S \n    (NP-SBJ (NNP Pierre) (NNP Vinken) )\n    (VP (MD will) ) (. .) ))\n(NP (-LRB- -LRB-) (NN x))\n"
	trees, err := ReadPhraseTrees(strings.NewReader(in), "a.mrg")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WritePhraseTrees(&out, trees); err != nil {
		t.Fatal(err)
	}
	want := "( (S (NP-SBJ (NNP Pierre) (NNP Vinken)) (VP (MD will)) (. .)) )\n( (NP (-LRB- -LRB-) (NN x)) )\n"
	if out.String() != want {
		t.Errorf("written\n%s\nwant\n%s", out.String(), want)
	}
	if trees[0].ID != "a.mrg:2" || trees[1].ID != "a.mrg:5" {
		t.Errorf("IDs %s, %s", trees[0].ID, trees[1].ID)
	}
	if got := strings.Join(trees[0].Words(), " "); got != "Pierre Vinken will ." {
		t.Errorf("words %q", got)
	}
	if got := strings.Join(trees[0].Tags(), " "); got != "NNP NNP MD ." {
		t.Errorf("tags %q", got)
	}
	again, err := ReadPhraseTrees(&out, "b.mrg")
	if err != nil {
		t.Fatal(err)
	}
	var out2 bytes.Buffer
	if err := WritePhraseTrees(&out2, again); err != nil {
		t.Fatal(err)
	}
	if out2.String() != want {
		t.Errorf("re-read and written\n%s", out2.String())
	}
}

func TestReadPhraseTreesErrors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		line int
		msg  string
	}{
		{"", 0, "no trees"},
		{"( (S (NN a) )", 1, "missing ')'"},
		{"( (S (NN a)) ))", 1, "unbalanced ')'"},
		{"word", 1, "outside a tree"},
		{"( (S (NN a)) (S (NN b)) )", 1, "more than one tree"},
		{"( (S\n (NN a b)) )", 2, "beside other content"},
		{"( (S\n (NN a) b) )", 2, "beside other content"},
		{"( (NN a (X b)) )", 1, "both the word"},
		{"( (S (NN a) (X)) )", 1, "is empty"},
		{"( (S ((NN a))) )", 1, "without a label"},
		{"( )", 1, "empty bracket"},
		{"( x )", 1, "is empty"},
		{"( (S (NN a)) x )", 1, "more than one tree"},
		{strings.Repeat("(X ", MaxBracketDepth+1) + "(NN a)" + strings.Repeat(")", MaxBracketDepth+1), 1, "nested deeper"},
		{"( (S (NN " + strings.Repeat("a", MaxBracketAtom+1) + ")) )", 1, "longer than"},
	} {
		_, err := ReadPhraseTrees(strings.NewReader(tt.in), "f.mrg")
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%.40q: error %v, want a *ParseError", tt.in, err)
			continue
		}
		if pe.File != "f.mrg" || pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) {
			t.Errorf("%.40q: %v, want line %d and %q", tt.in, err, tt.line, tt.msg)
		}
	}
}

func TestStripFunctionTags(t *testing.T) {
	for in, want := range map[string]string{
		"NP-SBJ-1": "NP", "PP-LOC=2": "PP", "S": "S", "-LRB-": "-LRB-", "-NONE-": "-NONE-",
		"NP=3": "NP", "PRP$": "PRP$", "-": "-", "ADVP|PRT": "ADVP|PRT",
	} {
		if got := StripFunctionTags(in); got != want {
			t.Errorf("StripFunctionTags(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJohnsonPreprocess(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{ // empty subject: the NP goes with its -NONE-
			"( (S (NP-SBJ (-NONE- *-1)) (VP (VBZ is) (ADJP-PRD (JJ ok))) (. .)) )",
			"( (S (VP (VBZ is) (ADJP (JJ ok))) (. .)) )",
		},
		{ // NP → NP left by an empty SBAR is merged
			"( (S (NP-SBJ-2 (NP (NNS men)) (SBAR (-NONE- 0) (S (-NONE- *T*-1)))) (VP (VBD left))) )",
			"( (S (NP (NNS men)) (VP (VBD left))) )",
		},
		{ // brackets stay as they are
			"( (NP (-LRB- -LRB-) (NN a) (-RRB- -RRB-)) )",
			"( (NP (-LRB- -LRB-) (NN a) (-RRB- -RRB-)) )",
		},
		{"( (S (-NONE- *)) )", ""},
	} {
		trees, err := ReadPhraseTrees(strings.NewReader(tt.in), "t")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := JohnsonPreprocess(trees[0])
		if !ok {
			if tt.want != "" {
				t.Errorf("%s: nothing left", tt.in)
			}
			continue
		}
		var b bytes.Buffer
		if err := WritePhraseTrees(&b, []PhraseTree{got}); err != nil {
			t.Fatal(err)
		}
		if s := strings.TrimSpace(b.String()); s != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.in, s, tt.want)
		}
	}
}

func TestWritePhraseTreesRefusesBadAtoms(t *testing.T) {
	for _, n := range []*PhraseNode{
		{Label: "a b", Word: "x"},
		{Label: "NN", Word: "x)"},
		{Label: "", Children: []*PhraseNode{{Label: "NN", Word: "x"}}},
	} {
		if err := WritePhraseTrees(&bytes.Buffer{}, []PhraseTree{{ID: "t", Root: n}}); err == nil {
			t.Errorf("%+v written", n)
		}
	}
}

// The NLTK sample of the WSJ: 3,914 trees, 393 of at most 10 words after
// Johnson's preprocessing (PROVENANCE.md), and every file reads back from
// its written form to the same trees.
func TestReadPTBSample(t *testing.T) {
	dir := os.Getenv(EnvDataDir)
	if dir == "" {
		t.Skip("needs REPRO_DATA")
	}
	path := filepath.Join(dir, "ptb-sample", "combined")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no %s: %v", path, err)
	}
	trees, err := LoadPhraseTrees(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 3914 {
		t.Errorf("%d trees, want 3914", len(trees))
	}
	short := 0
	for _, tr := range trees {
		p, ok := JohnsonPreprocess(tr)
		if !ok {
			t.Errorf("%s: empty after preprocessing", tr.ID)
			continue
		}
		if len(p.Leaves()) <= 10 {
			short++
		}
		for _, l := range p.Leaves() {
			if l.Label == "-NONE-" {
				t.Errorf("%s: -NONE- left", tr.ID)
			}
		}
	}
	if short != 393 {
		t.Errorf("%d trees of at most 10 words, want 393", short)
	}
	var b bytes.Buffer
	if err := WritePhraseTrees(&b, trees); err != nil {
		t.Fatal(err)
	}
	again, err := ReadPhraseTrees(bytes.NewReader(b.Bytes()), "written")
	if err != nil {
		t.Fatal(err)
	}
	var b2 bytes.Buffer
	if err := WritePhraseTrees(&b2, again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), b2.Bytes()) || len(again) != len(trees) {
		t.Error("the written sample does not read back to the same trees")
	}
}

// FuzzReadPhraseTrees checks that arbitrary input yields either a
// *ParseError or trees that write and read back to the same text, and
// that preprocessing leaves no -NONE- and no empty phrase.
func FuzzReadPhraseTrees(f *testing.F) {
	for _, s := range []string{
		"( (S (NP-SBJ (NNP Pierre)) (VP (MD will)) (. .)) )",
		"(NP (-LRB- -LRB-) (NN x))\n(X (Y z))",
		"( (S (NP-SBJ (-NONE- *-1)) (VP (VBZ is))) )",
		"( (S (NN a)) ))", "((", "( )", "(A (B c) d)", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		trees, err := ReadPhraseTrees(strings.NewReader(in), "fuzz.mrg")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		var b bytes.Buffer
		if err := WritePhraseTrees(&b, trees); err != nil {
			t.Fatal(err)
		}
		again, err := ReadPhraseTrees(bytes.NewReader(b.Bytes()), "w")
		if err != nil {
			t.Fatalf("written form %q does not read: %v", b.String(), err)
		}
		var b2 bytes.Buffer
		if err := WritePhraseTrees(&b2, again); err != nil || b2.String() != b.String() {
			t.Fatalf("written %q, re-read and written %q (%v)", b.String(), b2.String(), err)
		}
		for _, tr := range trees {
			p, ok := JohnsonPreprocess(tr)
			if !ok {
				continue
			}
			var check func(n *PhraseNode)
			check = func(n *PhraseNode) {
				if n.IsPreterminal() && (n.Label == "-NONE-" || n.Word == "") {
					t.Fatalf("%s: leaf %+v after preprocessing", tr.ID, n)
				}
				for _, c := range n.Children {
					check(c)
				}
			}
			check(p.Root)
		}
	})
}

// Format ptb reads a bracketed file through Johnson's preprocessing and
// keeps the trees of at most max_words words; max_words is the format's.
func TestLoadPTB(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := "( (S (NP-SBJ (DT The) (NN cat)) (VP (VBD sat))) )\n( (S (NP (-NONE- *)) (VP (VB go) (ADVP (RB home)) (NP (NN now) (NN please)))) )\n"
	if err := os.WriteFile(filepath.Join(dir, "t.mrg"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		max, want int
	}{{0, 2}, {3, 1}, {4, 2}} {
		l, err := Load(dir, "test", Declaration{Name: "p", Format: FormatPTB, Path: "t.mrg", MaxWords: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.PhraseTrees) != tc.want || len(l.Sequences) != tc.want {
			t.Errorf("max_words %d: %d trees, want %d", tc.max, len(l.PhraseTrees), tc.want)
		}
		if got := l.PhraseTrees[0].Root.Children[0].Label; got != "NP" {
			t.Errorf("label %q, want NP (function tag stripped)", got)
		}
		if s := l.Sequences[0]; !slices.Equal(s.Tokens, []string{"The", "cat", "sat"}) || l.Labels[s.Labels[0]] != "DT" {
			t.Errorf("sequence %+v (labels %v)", s, l.Labels)
		}
	}
	if err := (Declaration{Name: "x", Format: FormatCoNLL, Path: "a", MaxWords: 10}).Check(); err == nil || !strings.Contains(err.Error(), "max_words") {
		t.Errorf("max_words on a column file: %v", err)
	}
}
