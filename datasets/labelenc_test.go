package datasets

import (
	"slices"
	"strings"
	"testing"
)

var chunkSchemes = []Scheme{IOB1, IOB2, IOE1, IOE2, IOBES}

func TestParseScheme(t *testing.T) {
	for in, want := range map[string]Scheme{
		"iob1": IOB1, "IOB2": IOB2, "bio": IOB2, "ioe1": IOE1, "ioe2": IOE2, "ioe": IOE2,
		"iobes": IOBES, "BIOES": IOBES, "none": Plain,
	} {
		got, err := ParseScheme(in)
		if err != nil || got != want {
			t.Errorf("ParseScheme(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseScheme("bilou"); err == nil || !strings.Contains(err.Error(), "iob1") {
		t.Errorf("ParseScheme(bilou): err = %v, want the list of encodings", err)
	}
}

// TestSchemesOnOneSentence encodes one sentence, with adjacent chunks of one
// type and of different types, in every scheme, by hand.
func TestSchemesOnOneSentence(t *testing.T) {
	// PER [0,2), PER [2,3), O, LOC [4,5), ORG [5,7), ORG [7,8)
	chunks := []Chunk{{0, 2, "PER"}, {2, 3, "PER"}, {4, 5, "LOC"}, {5, 7, "ORG"}, {7, 8, "ORG"}}
	want := map[Scheme]string{
		IOB1:  "I-PER I-PER B-PER O I-LOC I-ORG I-ORG B-ORG",
		IOB2:  "B-PER I-PER B-PER O B-LOC B-ORG I-ORG B-ORG",
		IOE1:  "I-PER E-PER I-PER O I-LOC I-ORG E-ORG I-ORG",
		IOE2:  "I-PER E-PER E-PER O E-LOC I-ORG E-ORG E-ORG",
		IOBES: "B-PER E-PER S-PER O S-LOC B-ORG E-ORG S-ORG",
	}
	for _, s := range chunkSchemes {
		got, err := s.Encode(chunks, 8)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != want[s] {
			t.Errorf("%s: encoded %q, want %q", s, strings.Join(got, " "), want[s])
		}
		dec, bad, err := s.Decode(strings.Fields(want[s]))
		if err != nil || len(bad) > 0 || !slices.Equal(dec, chunks) {
			t.Errorf("%s: decoded %v, %v, %v; want %v", s, dec, bad, err, chunks)
		}
		for _, to := range chunkSchemes {
			conv, err := ConvertTags(strings.Fields(want[s]), s, to)
			if err != nil || strings.Join(conv, " ") != want[to] {
				t.Errorf("convert %s to %s: %q, %v; want %q", s, to, conv, err, want[to])
			}
		}
	}
}

// allTags enumerates every tag sequence of length n over O and the scheme's
// prefixes with types X and Y.
func allTags(s Scheme, n int) [][]string {
	alphabet := []string{"O"}
	for _, p := range s.prefixes() {
		alphabet = append(alphabet, string(p)+"-X", string(p)+"-Y")
	}
	out := [][]string{{}}
	for range n {
		var next [][]string
		for _, seq := range out {
			for _, a := range alphabet {
				next = append(next, append(slices.Clone(seq), a))
			}
		}
		out = next
	}
	return out
}

// TestSchemeRoundTripExhaustive checks, for every tag sequence of up to 4
// tokens in every scheme: decoded chunks are ordered, cover exactly the
// non-O tokens and keep their type; a sequence without violations encodes
// back to itself; and every chunking encodes to a sequence without
// violations that decodes back to it.
func TestSchemeRoundTripExhaustive(t *testing.T) {
	for _, s := range chunkSchemes {
		valid := 0
		for n := 1; n <= 4; n++ {
			for _, tags := range allTags(s, n) {
				chunks, bad, err := s.Decode(tags)
				if err != nil {
					t.Fatalf("%s %q: %v", s, tags, err)
				}
				covered := make([]bool, n)
				next := 0
				for _, c := range chunks {
					if c.Start < next || c.End <= c.Start || c.End > n {
						t.Fatalf("%s %q: bad chunk %+v in %v", s, tags, c, chunks)
					}
					for i := c.Start; i < c.End; i++ {
						covered[i] = true
						if !strings.HasSuffix(tags[i], "-"+c.Type) {
							t.Fatalf("%s %q: token %d in chunk %+v", s, tags, i, c)
						}
					}
					next = c.End
				}
				for i, tag := range tags {
					if covered[i] != (tag != "O") {
						t.Fatalf("%s %q: token %d covered=%v", s, tags, i, covered[i])
					}
				}
				enc, err := s.Encode(chunks, n)
				if err != nil {
					t.Fatal(err)
				}
				if _, bad2, _ := s.Decode(enc); len(bad2) > 0 {
					t.Fatalf("%s: encoding %q of %v has violations %v", s, enc, chunks, bad2)
				}
				if len(bad) == 0 {
					valid++
					if !slices.Equal(enc, tags) {
						t.Fatalf("%s %q: valid but encodes back to %q", s, tags, enc)
					}
				}
			}
		}
		// Every chunking has exactly one valid encoding, so the valid
		// sequences are as many as the chunkings.
		if want := chunkings(4); valid != want {
			t.Errorf("%s: %d valid sequences of 1..4 tokens, want one per chunking (%d)", s, valid, want)
		}
	}
}

// chunkings counts the chunkings of 1..maxN tokens over 2 types: c(n) =
// c(n-1) (token n is O) + Σ_len 2·c(n-len) (a chunk of length len ends at n).
func chunkings(maxN int) int {
	c := []int{1}
	total := 0
	for n := 1; n <= maxN; n++ {
		v := c[n-1]
		for l := 1; l <= n; l++ {
			v += 2 * c[n-l]
		}
		c = append(c, v)
		total += v
	}
	return total
}

func TestDecodeViolations(t *testing.T) {
	for _, tc := range []struct {
		s      Scheme
		tags   string
		chunks []Chunk
		pos    []int
		msg    string
	}{
		{IOB1, "O B-X I-X", []Chunk{{1, 3, "X"}}, []int{1}, "B-X after O: IOB1 writes B- only"},
		{IOB1, "B-X", []Chunk{{0, 1, "X"}}, []int{0}, "after the sentence start"},
		{IOB1, "I-Y B-X", []Chunk{{0, 1, "Y"}, {1, 2, "X"}}, []int{1}, "is the file IOB2?"},
		{IOB2, "O I-X I-X", []Chunk{{1, 3, "X"}}, []int{1}, "I-X after O: IOB2 starts every chunk with B- (is the file IOB1?)"},
		{IOB2, "B-Y I-X", []Chunk{{0, 1, "Y"}, {1, 2, "X"}}, []int{1}, "I-X after B-Y"},
		{IOE1, "E-X O", []Chunk{{0, 1, "X"}}, []int{0}, "E-X before O: IOE1 writes E- only"},
		{IOE1, "I-X E-X", []Chunk{{0, 2, "X"}}, []int{1}, "before the sentence end"},
		{IOE2, "I-X O", []Chunk{{0, 1, "X"}}, []int{0}, "I-X before O: IOE2 ends every chunk with E-"},
		{IOE2, "I-X I-Y E-Y", []Chunk{{0, 1, "X"}, {1, 3, "Y"}}, []int{0}, "I-X before I-Y"},
		{IOBES, "I-X E-X", []Chunk{{0, 2, "X"}}, []int{0}, "IOBES starts every chunk with B- or S-"},
		{IOBES, "B-X O", []Chunk{{0, 1, "X"}}, []int{0}, "IOBES ends every chunk with E- or S-"},
		{IOBES, "B-X S-X", []Chunk{{0, 1, "X"}, {1, 2, "X"}}, []int{0}, "B-X before S-X"},
		{IOBES, "O E-X", []Chunk{{1, 2, "X"}}, []int{1}, "E-X after O"},
	} {
		chunks, bad, err := tc.s.Decode(strings.Fields(tc.tags))
		if err != nil {
			t.Fatalf("%s %q: %v", tc.s, tc.tags, err)
		}
		var pos []int
		for _, v := range bad {
			pos = append(pos, v.Pos)
		}
		if !slices.Equal(chunks, tc.chunks) || !slices.Equal(pos, tc.pos) || !strings.Contains(bad[0].Msg, tc.msg) {
			t.Errorf("%s %q: chunks %v, violations %v; want %v at %v with %q", tc.s, tc.tags, chunks, bad, tc.chunks, tc.pos, tc.msg)
		}
	}
}

func TestDecodeBadTags(t *testing.T) {
	for _, tc := range []struct {
		s   Scheme
		tag string
	}{
		{IOB2, "E-X"}, {IOB1, "S-X"}, {IOE2, "B-X"}, {IOBES, "X"}, {IOB2, "B-"}, {IOB2, "BB-X"}, {IOB2, "o"},
	} {
		if _, _, err := tc.s.Decode([]string{"O", tc.tag}); err == nil || !strings.Contains(err.Error(), "token 1") {
			t.Errorf("%s %q: err = %v, want an error at token 1", tc.s, tc.tag, err)
		}
	}
	if _, err := ConvertTags(strings.Fields("O I-X"), IOB2, IOB1); err == nil {
		t.Error("ConvertTags accepted IOB2 I-X after O")
	}
	if _, err := IOB2.Encode([]Chunk{{1, 2, "X"}, {0, 1, "X"}}, 2); err == nil {
		t.Error("Encode accepted chunks out of order")
	}
}

func TestPlainScheme(t *testing.T) {
	chunks, bad, err := Plain.Decode(strings.Fields("NN NN VB NN"))
	want := []Chunk{{0, 2, "NN"}, {2, 3, "VB"}, {3, 4, "NN"}}
	if err != nil || bad != nil || !slices.Equal(chunks, want) {
		t.Errorf("Plain.Decode = %v, %v, %v; want %v", chunks, bad, err, want)
	}
	enc, err := Plain.Encode(want, 5)
	if err != nil || strings.Join(enc, " ") != "NN NN VB NN O" {
		t.Errorf("Plain.Encode = %q, %v", enc, err)
	}
}
