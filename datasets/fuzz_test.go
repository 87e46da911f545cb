package datasets

import (
	"errors"
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
