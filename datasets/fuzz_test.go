package datasets

import (
	"errors"
	"reflect"
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
