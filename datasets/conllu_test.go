package datasets

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const conlluFixture = `# sent_id = 1
# text = Hon läser boken.
1	Hon	hon	PRON	PN	_	2	nsubj	_	_
2	läser	läsa	VERB	VB	_	0	root	_	_
3-4	boken.	_	_	_	_	_	_	_	_
3	boken	bok	NOUN	_	_	2	obj	_	_
3.1	x	x	X	_	_	_	_	2:dep	_
4	.	.	PUNCT	MAD	_	2	punct	_	_

1	Ja	ja	INTJ	IN	_	0	root	_	_

`

func TestReadTreebank(t *testing.T) {
	tb, err := ReadTreebank(strings.NewReader(conlluFixture), "fix.conllu")
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Trees) != 2 {
		t.Fatalf("%d trees, want 2", len(tb.Trees))
	}
	s := tb.Trees[0]
	if strings.Join(s.Words, " ") != "Hon läser boken ." || s.POS[2] != "NOUN" || s.CPOS[0] != "PRON" || s.Rels[1] != "root" {
		t.Errorf("sentence %+v", s)
	}
	if want := []int{-1, 2, 0, 2, 2}; !equalInts(s.Heads, want) || s.ID != "fix.conllu:3" {
		t.Errorf("heads %v id %s, want %v fix.conllu:3", s.Heads, s.ID, want)
	}
	// Written back unchanged, and with other heads only HEAD changes.
	var out bytes.Buffer
	if err := WriteTreebank(&out, tb, nil); err != nil {
		t.Fatal(err)
	}
	if out.String() != conlluFixture {
		t.Errorf("round trip:\n%s\nwant\n%s", out.String(), conlluFixture)
	}
	out.Reset()
	if err := WriteTreebank(&out, tb, [][]int{{-1, 0, 1, 2, 2}, {-1, 0}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "1\tHon\thon\tPRON\tPN\t_\t0\tnsubj") || !strings.Contains(out.String(), "2\tläser\tläsa\tVERB\tVB\t_\t1\troot") {
		t.Errorf("predicted heads not written:\n%s", out.String())
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestReadTreebankErrors(t *testing.T) {
	row := func(id, head string) string { return id + "\tw\tw\tX\tX\t_\t" + head + "\tdep\t_\t_\n" }
	tests := []struct {
		name, text, want string
	}{
		{"columns", "1\tw\tw\n", "fix:1: 3 tab-separated columns, want 10"},
		{"id order", row("1", "0") + row("3", "1"), `fix:2: field "ID": "3", want 2`},
		{"head not a number", row("1", "x"), `fix:1: field "HEAD": "x" is not a word number`},
		{"head beyond sentence", row("1", "0") + row("2", "5") + "\n", `fix:2: field "HEAD": head 5 of word 2: the sentence has 2 words`},
		{"self head", row("1", "1"), `fix:1: field "HEAD": word 1 is its own head`},
		{"cycle", row("1", "2") + row("2", "1") + "\n", `fix:1: field "HEAD": the heads of this sentence do not form a tree`},
		{"empty", "# only a comment\n\n", "fix: no sentences"},
	}
	for _, tt := range tests {
		_, err := ReadTreebank(strings.NewReader(tt.text), "fix")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want prefix %q", tt.name, err, tt.want)
		}
	}
}

// TestReadUnparsed: text to be parsed may leave HEAD "_" (read as -1,
// no tree check), is written back with the heads given, and is still
// refused for a head that is neither "_" nor a word number.
func TestReadUnparsed(t *testing.T) {
	row := func(id, head string) string { return id + "\tw\tw\tX\tX\t_\t" + head + "\tdep\t_\t_\n" }
	text := row("1", "_") + row("2", "_") + "\n"
	if _, err := ReadTreebank(strings.NewReader(text), "fix"); err == nil {
		t.Fatal("ReadTreebank read unknown heads")
	}
	tb, err := ReadUnparsed(strings.NewReader(text), "fix")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{-1, -1, -1}; !equalInts(tb.Trees[0].Heads, want) {
		t.Errorf("heads %v, want %v", tb.Trees[0].Heads, want)
	}
	var out bytes.Buffer
	if err := WriteTreebank(&out, tb, [][]int{{-1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if want := row("1", "0") + row("2", "1") + "\n"; out.String() != want {
		t.Errorf("written:\n%s\nwant\n%s", out.String(), want)
	}
	for _, bad := range []string{row("1", "x"), row("1", "2") + row("2", "1") + "\n"} {
		if _, err := ReadUnparsed(strings.NewReader(bad), "fix"); err == nil {
			t.Errorf("ReadUnparsed read %q", bad)
		}
	}
}

// The real treebanks read whole, and write back byte for byte.
func TestReadRealTreebanks(t *testing.T) {
	dir := os.Getenv(EnvDataDir)
	if dir == "" {
		t.Skip("needs REPRO_DATA")
	}
	for file, sentences := range map[string]int{
		"conllx/sv_talbanken_ud_2015-01-05/sv-ud-train.conll": 0,
		"conllx/sv_talbanken_ud_2015-01-05/sv-ud-dev.conll":   0,
		"conllx/sv_talbanken-ud-dev.conllu":                   504,
		"conllx/da_ddt-ud-test.conllu":                        565,
		"conllx/nl_alpino-ud-test.conllu":                     596,
	} {
		path := filepath.Join(dir, file)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("no %s: %v", path, err)
		}
		tb, err := ReadTreebank(bytes.NewReader(raw), file)
		if err != nil {
			t.Fatal(err)
		}
		if sentences > 0 && len(tb.Trees) != sentences {
			t.Errorf("%s: %d sentences, want %d (PROVENANCE.md)", file, len(tb.Trees), sentences)
		}
		var out bytes.Buffer
		if err := WriteTreebank(&out, tb, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), raw) {
			t.Errorf("%s does not round-trip", file)
		}
	}
}

func FuzzReadTreebank(f *testing.F) {
	f.Add(conlluFixture)
	f.Add("1\tw\tw\tX\tX\t_\t0\tdep\t_\t_\n")
	f.Fuzz(func(t *testing.T, text string) {
		tb, err := ReadTreebank(strings.NewReader(text), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteTreebank(&out, tb, nil); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTreebank(&out, "fuzz")
		if err != nil || len(back.Trees) != len(tb.Trees) {
			t.Fatalf("written treebank does not read back: %v", err)
		}
	})
}
