package tagger

import (
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
)

// Label-encoding detection says how sure it is, and a file whose tags look
// like chunk tags but that some tag keeps from reading as any encoding (a
// cut file, a damaged label) is an error naming the first such line unless
// the encoding is given.
func TestDetectScheme(t *testing.T) {
	t.Parallel()
	iob2 := "EU NNP B-ORG\nrejects VBZ O\nGerman JJ B-MISC\ncall NN O\n\nPeter NNP B-PER\nBlackburn NNP I-PER\n"
	for _, tc := range []struct {
		name, text, scheme string // scheme: given, or "" to detect
		want               datasets.Scheme
		describe, err      string
	}{
		{"iob2", iob2, "", datasets.IOB2, "detected: all 6 tags read; iob1, iobes would read them too (the same chunks)", ""},
		{"iob1 only", "a X I-PER\nb X B-PER\n", "", datasets.IOB1, "detected: all 2 tags read", ""},
		{"plain labels", "a X PER\nb X O\nc X LOC\n", "", datasets.Plain, "detected: 1 of 3 tags are chunk tags", ""},
		{"mostly O, plain types", "a X O\nb X O\nc X O\nd X PER\n", "", datasets.Plain, "", ""},
		{"cut in a tag", iob2 + "Chirac NNP B-\n", "", "", "", `x.txt:8: field "label": tag "B-" is not O or PREFIX-TYPE, yet 6 of the file's 7 tags are O or chunk tags`},
		{"NUL in a label", strings.Replace(iob2, "I-PER", "I-P\x00ER", 1), "", "", "", `x.txt:7: field "label": tag "I-P\x00ER" is not O`},
		{"NUL label given none", strings.Replace(iob2, "I-PER", "I-P\x00ER", 1), "none", datasets.Plain, "", ""},
		{"cut, given iob2", iob2 + "Chirac NNP B-\n", "iob2", "", "", `x.txt:8: field "label": tag "B-" is not O or one of B-TYPE, I-TYPE in iob2`},
	} {
		d, err := ParseData(strings.NewReader(tc.text), "x.txt", Format{Scheme: tc.scheme})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if d.Format.Scheme != string(tc.want) {
			t.Errorf("%s: encoding %s, want %s", tc.name, d.Format.Scheme, tc.want)
		}
		switch {
		case tc.scheme != "" && d.Detection != nil:
			t.Errorf("%s: a given encoding was detected: %v", tc.name, d.Detection)
		case tc.scheme == "" && (d.Detection == nil || !strings.Contains(d.Detection.String(), tc.describe)):
			t.Errorf("%s: detection %v, want %q", tc.name, d.Detection, tc.describe)
		}
	}
}
