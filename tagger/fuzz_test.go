package tagger

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
)

// useDecoded exercises a model the reader accepted: it must predict
// without panicking.
func useDecoded(t *testing.T, m *Model) {
	if _, err := m.Tag([]string{"John", "Smith", "visited", "Paris"}, [][]string{{"NNP", "NNP", "X", "NNP"}}); err != nil {
		t.Fatalf("an accepted model cannot tag: %v", err)
	}
}

// FuzzDecode feeds arbitrary bytes to the model file reader: it must never
// panic, refuse what it cannot read with an ErrFormat error, and return
// only models that can tag. The seeds are a valid file, its truncations
// and a file of another version.
func FuzzDecode(f *testing.F) {
	m, _ := smallModel(f)
	good := saved(f, m)
	f.Add(good)
	for _, n := range []int{0, 5, len(magic), len(magic) + 4, len(magic) + 20, len(good) / 2, len(good) - 1} {
		f.Add(good[:n])
	}
	other := bytes.Clone(good)
	other[len(magic)+3]++
	f.Add(other)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		useDecoded(t, m)
	})
}

// FuzzPayload fuzzes what lies inside a file's gzip stream, framed with a
// valid magic, version and checksum, so that the header, attribute and
// weight decoding and the model's checks all see arbitrary input: the
// reader must never panic and must return only models that can tag.
func FuzzPayload(f *testing.F) {
	m, _ := smallModel(f)
	var payload bytes.Buffer
	if err := m.writePayload(&payload); err != nil {
		f.Fatal(err)
	}
	good := payload.Bytes()
	f.Add(good)
	for _, n := range []int{0, 1, 40, len(good) / 2, len(good) - 8, len(good) - 1} {
		f.Add(good[:n])
	}
	f.Add(append(bytes.Clone(good), 0))
	f.Fuzz(func(t *testing.T, p []byte) {
		var file bytes.Buffer
		if err := frame(&file, func(w io.Writer) error { _, err := w.Write(p); return err }); err != nil {
			t.Fatal(err)
		}
		m, err := Decode(file.Bytes())
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		useDecoded(t, m)
	})
}

// FuzzParseData reads arbitrary column files with the label encoding
// detected: the reader must never panic; an error names the file; a file
// read is read under the encoding detected, every tag of it, and the
// detection's counts are consistent.
func FuzzParseData(f *testing.F) {
	f.Add("EU NNP B-ORG\nrejects VBZ O\n\nPeter NNP B-PER\nBlackburn NNP I-PER\n")
	f.Add("EU NNP B-ORG\nrejects VBZ O\nChirac NNP B-")
	f.Add("a X I-P\x00ER\nb X O\n")
	f.Add("a PER\nb O\nc LOC\n")
	f.Add("\xEF\xBB\xBFa B-X\n")
	f.Fuzz(func(t *testing.T, text string) {
		d, err := ParseData(strings.NewReader(text), "f.txt", Format{Kind: FormatCoNLL})
		if err != nil {
			if !strings.Contains(err.Error(), "f.txt") {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		det := d.Detection
		if det == nil || string(det.Scheme) != d.Format.Scheme || det.Chunked > det.Tags || det.Broken > det.Tags {
			t.Fatalf("detection %+v, format %+v", det, d.Format)
		}
		if det.Scheme != datasets.Plain && (len(det.Readers) == 0 || det.Readers[0] != det.Scheme || det.Chunked != det.Tags) {
			t.Fatalf("detected %s, yet %+v", det.Scheme, det)
		}
	})
}
