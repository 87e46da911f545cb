package report

import (
	"bytes"
	"compress/zlib"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// pdfStreams returns the decompressed content streams of a PDF written
// by vgpdf (which compresses every stream with zlib).
func pdfStreams(t *testing.T, pdf []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for _, m := range regexp.MustCompile(`(?s)stream\r?\n(.*?)endstream`).FindAllSubmatch(pdf, -1) {
		r, err := zlib.NewReader(bytes.NewReader(m[1]))
		if err != nil {
			continue // not a zlib stream
		}
		b, err := io.ReadAll(r)
		if err != nil {
			continue // e.g. a font program with trailing bytes; not a page
		}
		out = append(out, b)
	}
	return out
}

// pdfTextRuns returns the strings shown by Tj operators, decoded from
// cp1252 (the encoding of vgpdf's fonts), in order.
func pdfTextRuns(t *testing.T, pdf []byte) []string {
	t.Helper()
	tj := regexp.MustCompile(`\(((?:[^()\\]|\\.)*)\) ?Tj`)
	unescape := strings.NewReplacer(`\(`, "(", `\)`, ")", `\\`, `\`)
	var out []string
	for _, s := range pdfStreams(t, pdf) {
		for _, m := range tj.FindAllSubmatch(s, -1) {
			text, err := charmap.Windows1252.NewDecoder().Bytes(m[1])
			if err != nil {
				t.Fatalf("Tj string %q: %v", m[1], err)
			}
			out = append(out, unescape.Replace(string(text)))
		}
	}
	return out
}

// A string with characters outside cp1252 is drawn as cp1252 text runs
// around outlined characters: no run holds the UTF-8 bytes that a viewer
// shows as "â^'" (for −) or "Î²" (for β), and ± is one cp1252 byte.
func TestPDFCanvasDrawsNonCP1252Characters(t *testing.T) {
	face := font.DefaultCache.Lookup(plot.DefaultFont, vg.Points(12))
	for _, tc := range []struct {
		text  string
		runs  []string // the text runs the PDF must show
		paths bool     // whether outlines must be filled
	}{
		{"a−b ±1 β", []string{"a", "b ±1 "}, true},
		{"inverse temperature β (log scale)", []string{"inverse temperature ", " (log scale)"}, true},
		{"plain ±1 std", []string{"plain ±1 std"}, false},
	} {
		c := newPDFCanvas(3*vg.Inch, vg.Inch)
		c.FillString(face, vg.Point{X: 10, Y: 20}, tc.text)
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		got := pdfTextRuns(t, buf.Bytes())
		if !slices.Equal(got, tc.runs) {
			t.Errorf("%q: PDF text runs %q, want %q", tc.text, got, tc.runs)
		}
		// A filled path ends with the "f" operator on a line of its own.
		filled := false
		for _, s := range pdfStreams(t, buf.Bytes()) {
			filled = filled || regexp.MustCompile(`(?m)^f$`).Match(s)
		}
		if filled != tc.paths {
			t.Errorf("%q: filled outlines %v, want %v", tc.text, filled, tc.paths)
		}
	}
}

// The axis labels of a saved β figure carry no mojibake.
func TestSaveFigurePDFLabels(t *testing.T) {
	fig, err := Figure(betaRuns(), betaFigure(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := SaveFigure(fig, dir, "f"); err != nil {
		t.Fatal(err)
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "f.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	runs := pdfTextRuns(t, pdf)
	if !slices.Contains(runs, "inverse temperature ") {
		t.Errorf("no text run %q in %q", "inverse temperature ", runs)
	}
	for _, s := range runs {
		if strings.ContainsAny(s, "ÎâÂ") {
			t.Errorf("text run %q shows UTF-8 bytes as cp1252", s)
		}
	}
}

// Drawing through draw.Canvas (as plot.Draw does, with rotation for the Y
// label) gives the same runs.
func TestPDFCanvasRotatedText(t *testing.T) {
	c := newPDFCanvas(3*vg.Inch, 3*vg.Inch)
	dc := draw.New(c)
	fnt := plot.DefaultFont
	fnt.Size = vg.Points(12)
	sty := draw.TextStyle{Font: fnt, Rotation: math.Pi / 2, Handler: plot.DefaultTextHandler}
	dc.FillText(sty, vg.Point{X: 100, Y: 100}, "token error − crf")
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if got, want := pdfTextRuns(t, buf.Bytes()), []string{"token error ", " crf"}; !slices.Equal(got, want) {
		t.Errorf("runs %q, want %q", got, want)
	}
}

// Saving the same figure twice gives byte-identical files in every
// format, outlined characters included.
func TestSaveFigureDeterministic(t *testing.T) {
	fig, err := Figure(betaRuns(), betaFigure(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := SaveFigure(fig, dir, "f"); err != nil {
			t.Fatal(err)
		}
	}
	for _, ext := range figureFormats() {
		x, errA := os.ReadFile(filepath.Join(a, "f."+ext))
		y, errB := os.ReadFile(filepath.Join(b, "f."+ext))
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("f.%s differs between two saves", ext)
		}
	}
}
