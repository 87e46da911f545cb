package datasets

import (
	"errors"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzParseCora checks that arbitrary input yields either a well-formed
// corpus or a *ParseError, never a panic.
func FuzzParseCora(f *testing.F) {
	for _, s := range []string{
		"<NEWREFERENCE>\n<author> A. Cau, </author> <title> On X. </title> <date> 1992. </date>\n",
		"<NEWREFERENCE>\n<date>(1995).</date><title>On</title>\n",
		"<NEWREFERENCE>\r\n<title> a<b x>y </title>\r\n",
		"<NEWREFERENCE>\n<author> A. <title> B </title>\n",
		"<NEWREFERENCE>\n<author> A. </title>\n",
		"<NEWREFERENCE>\n<title> </title>\n",
		"<NEWREFERENCE>\n\n",
		"<NEWREFERENCE>\n",
		"<author> A. </author>\n",
		"<NEWREFERENCE>\n<x> y </x>\n",
		"<NEWREFERENCE>\n<title> <</ </title>\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		c, err := ParseCora(strings.NewReader(input), "fuzz.txt")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if len(c.Sequences) == 0 {
			t.Fatal("no error and no sequences")
		}
		for _, s := range c.Sequences {
			checkSequence(t, s, len(c.Labels))
			for _, tok := range s.Tokens {
				if tok == "" || strings.ContainsAny(tok, " \t\n") {
					t.Fatalf("bad token %q", tok)
				}
			}
		}
	})
}

// FuzzParseCoNLL checks that arbitrary input in any scheme yields either a
// *ParseError or a corpus that keeps the reader's invariants and survives
// a write and a strict re-read unchanged (up to source lines).
func FuzzParseCoNLL(f *testing.F) {
	for _, s := range []string{
		"-DOCSTART- -X- O O\n\nEU NNP I-NP I-ORG\nrejects VBZ I-VP O\n\n",
		"a NN B-X\nb I-X\n",
		"a NN O\nb NN I-X\n",
		"a O\nb B-X\n",
		"a E-X\nb O\n",
		"a I-X\n\n",
		"a B-X\nb O\n",
		"a NN O\nb NN E-X\n",
		"a NN B-X\n-DOCSTART- -X- O\n",
		"a NN O\nb\xf1o NN O\n",
		"\n-DOCSTART- -X- O\n\n",
		"x B-A-B\r\ny I-A-B\r\n\r\n",
		"",
	} {
		for scheme := range uint8(6) {
			f.Add(s, scheme, scheme%2 == 0)
		}
	}
	schemes := []Scheme{IOB1, IOB2, IOE1, IOE2, IOBES, Plain}
	f.Fuzz(func(t *testing.T, input string, scheme uint8, repair bool) {
		format := CoNLLFormat{Scheme: schemes[int(scheme)%len(schemes)], Repair: repair}
		c, _, err := ParseCoNLL(strings.NewReader(input), "fuzz.txt", format)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		for _, s := range c.Sequences {
			if format.Scheme == Plain {
				checkSequence(t, s, len(c.Labels))
			} else {
				checkChunkSequence(t, s, c.Labels)
			}
		}
		var b strings.Builder
		if err := WriteCoNLL(&b, c, format); err != nil {
			t.Fatalf("write: %v", err)
		}
		format.Repair = false
		again, repairs, err := ParseCoNLL(strings.NewReader(b.String()), "fuzz.txt", format)
		if err != nil || repairs != nil {
			t.Fatalf("re-read of %q: %v %v", b.String(), err, repairs)
		}
		for i := range again.Sequences {
			again.Sequences[i].Line = c.Sequences[i].Line
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("re-read differs:\n%+v\n%+v", again, c)
		}
	})
}

// FuzzParseCRFsuite checks that arbitrary input yields either a
// *ParseError or a corpus whose attributes keep the reader's invariants
// (values in canonical form: a list only where some value is not 1) and
// survive a write and a strict re-read unchanged (up to source lines).
func FuzzParseCRFsuite(f *testing.F) {
	for _, s := range []string{
		"B-NP\tw[0]=An\t__BOS__\nI-NP\tw[0]=AP\n\nO\tw[0]=.\n\n",
		"y\tlen:2.5\tw=a\\:b\tback\\\\slash:-1e-3\tfoo\\bar\tflag:\n",
		"a\tx\ty\tx\n\nb\tz:0.5\tz:0.5\n",
		"B\\:X\t\tx\t\n\n\n\n",
		"a\nb\tw=New York\n",
		"a\tx:1:2\n",
		"@weight:2\n",
		"\ta\n",
		"a\tx\r\n",
		"a\t:1\n",
		"a\tx:0x1p-2\tz:-0\n",
		"\n\na\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		c, a, err := ParseCRFsuite(strings.NewReader(input), "fuzz.txt")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if len(c.Sequences) == 0 || len(a.Names) != len(c.Sequences) {
			t.Fatalf("%d sequences, attributes for %d", len(c.Sequences), len(a.Names))
		}
		if a.Values != nil && len(a.Values) != len(a.Names) {
			t.Fatalf("values for %d sequences of %d", len(a.Values), len(a.Names))
		}
		for i, s := range c.Sequences {
			checkSequence(t, s, len(c.Labels))
			if len(a.Names[i]) != len(s.Labels) {
				t.Fatalf("sequence %d: %d tokens, attributes for %d", i, len(s.Labels), len(a.Names[i]))
			}
			for tok, names := range a.Names[i] {
				seen := map[string]bool{}
				for j, n := range names {
					if n == "" || seen[n] || strings.ContainsAny(n, "\t\n\r\x00") {
						t.Fatalf("sequence %d token %d: bad or repeated attribute %q", i, tok, n)
					}
					seen[n] = true
					if v := a.Value(i, tok, j); math.IsInf(v, 0) || math.IsNaN(v) {
						t.Fatalf("value %v", v)
					}
				}
				if a.Values != nil && a.Values[i] != nil && a.Values[i][tok] != nil &&
					!slices.ContainsFunc(a.Values[i][tok], func(v float64) bool { return v != 1 }) {
					t.Fatalf("sequence %d token %d: a value list of ones %v", i, tok, a.Values[i][tok])
				}
			}
		}
		var b strings.Builder
		if err := WriteCRFsuite(&b, c, a); err != nil {
			t.Fatalf("write: %v", err)
		}
		again, againAttrs, err := ParseCRFsuite(strings.NewReader(b.String()), "fuzz.txt")
		if err != nil {
			t.Fatalf("re-read of %q: %v", b.String(), err)
		}
		for i := range again.Sequences {
			again.Sequences[i].Line = c.Sequences[i].Line
		}
		if !reflect.DeepEqual(again, c) || !reflect.DeepEqual(againAttrs, a) {
			t.Fatalf("re-read differs:\n%+v %+v\n%+v %+v", again, againAttrs, c, a)
		}
	})
}

// FuzzLineBound checks the line bound of the line readers on arbitrary
// input and bounds: a line is refused (a *LineTooLongError naming it) if
// and only if it is the first of more than the bound's bytes before its
// LF (a leading byte-order mark not counted), unless the reader stopped at
// an earlier line for another reason; every error is a *ParseError.
func FuzzLineBound(f *testing.F) {
	f.Add("EU NNP B-ORG\nrejects VBZ O\n", uint8(8))
	f.Add("\xEF\xBB\xBFEU B-ORG\n", uint8(8))
	f.Add("a O\r\nbbbbbbbb O\n", uint8(3))
	f.Add("<NEWREFERENCE>\n<author> A </author>\n", uint8(20))
	f.Fuzz(func(t *testing.T, input string, bound uint8) {
		limit := int(bound) + 1
		first := 0 // the first line over the bound, 1-based
		for i, line := range strings.Split(strings.TrimPrefix(input, "\xEF\xBB\xBF"), "\n") {
			if len(line) > limit {
				first = i + 1
				break
			}
		}
		readers := map[string]func() error{
			"conll": func() error {
				_, _, err := ParseCoNLL(strings.NewReader(input), "f.txt", CoNLLFormat{Scheme: IOB2, Repair: true, MaxLine: limit})
				return err
			},
			"cora": func() error { _, err := ParseCoraMaxLine(strings.NewReader(input), "f.txt", limit); return err },
			"guard": func() error {
				_, err := io.ReadAll(LineGuard(SkipBOM(strings.NewReader(input)), "f.txt", limit))
				return err
			},
		}
		for name, read := range readers {
			err := read()
			var pe *ParseError
			if err != nil && !errors.As(err, &pe) {
				t.Fatalf("%s: error %v is not a *ParseError", name, err)
			}
			var tl *LineTooLongError
			switch tooLong := errors.As(err, &tl); {
			case tooLong && (pe.Line != first || tl.Limit != limit):
				t.Fatalf("%s: %v, but the first line over %d bytes is %d", name, err, limit, first)
			case !tooLong && first > 0 && (err == nil || pe.Line > first):
				t.Fatalf("%s: line %d is over %d bytes, yet: %v", name, first, limit, err)
			}
		}
	})
}
