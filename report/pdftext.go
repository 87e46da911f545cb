package report

import (
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/encoding/charmap"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pdfCanvas is a vgpdf canvas whose text shows every character the font
// has, not only those of Windows code page 1252.
//
// vgpdf embeds its fonts with the cp1252 encoding but passes strings to
// the PDF writer as UTF-8 bytes, so a PDF viewer reads each byte of a
// multi-byte character as a cp1252 character of its own: "β" shows as
// "Î²", "−" as "â^'" and even "±" as "Â±". pdfCanvas transcodes each string
// to cp1252 and draws the characters cp1252 lacks (Greek letters, the
// minus sign, …) as filled outlines taken from the same font, so they look
// like the text around them. Text made of cp1252 characters stays text in
// the PDF (searchable and selectable); the outlined characters do not.
type pdfCanvas struct {
	*vgpdf.Canvas
}

func newPDFCanvas(w, h vg.Length) *pdfCanvas {
	return &pdfCanvas{Canvas: vgpdf.New(w, h)}
}

// FillString implements vg.Canvas: it draws s with its baseline starting
// at pt, as runs of cp1252 text and outlined characters.
func (c *pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Size == 0 {
		return
	}
	var (
		buf  sfnt.Buffer
		run  []byte // cp1252 bytes not yet drawn
		at   = pt   // where run starts
		next = pt.X // where the next character starts
	)
	flush := func() {
		if len(run) > 0 {
			c.Canvas.FillString(f, at, string(run))
			run = run[:0]
		}
	}
	for _, r := range s {
		adv := advance(&buf, f, r)
		if b, ok := charmap.Windows1252.EncodeRune(r); ok {
			if len(run) == 0 {
				at = vg.Point{X: next, Y: pt.Y}
			}
			run = append(run, b)
		} else {
			flush()
			c.fillGlyph(&buf, f, vg.Point{X: next, Y: pt.Y}, r)
		}
		next += adv
	}
	flush()
}

// advance is the advance width of r in f, without kerning: the PDF writer
// places the characters of a text run by their advances alone, so the
// outlined characters must be placed the same way to line up with it.
func advance(buf *sfnt.Buffer, f font.Face, r rune) vg.Length {
	ppem := fixed.Int26_6(f.Face.UnitsPerEm()) // coordinates in font units
	idx, err := f.Face.GlyphIndex(buf, r)
	if err != nil {
		return 0
	}
	adv, err := f.Face.GlyphAdvance(buf, idx, ppem, 0)
	if err != nil {
		return 0
	}
	return vg.Length(adv) * f.Font.Size / vg.Length(ppem)
}

// fillGlyph fills the outline of r in f with its origin at pt. A character
// the font lacks is drawn as the font's "?", as the PDF writer would.
func (c *pdfCanvas) fillGlyph(buf *sfnt.Buffer, f font.Face, pt vg.Point, r rune) {
	ppem := fixed.Int26_6(f.Face.UnitsPerEm())
	idx, err := f.Face.GlyphIndex(buf, r)
	if err != nil || idx == 0 {
		c.Canvas.FillString(f, pt, "?")
		return
	}
	segs, err := f.Face.LoadGlyph(buf, idx, ppem, nil)
	if err != nil {
		c.Canvas.FillString(f, pt, "?")
		return
	}
	scale := f.Font.Size / vg.Length(ppem)
	// Glyph coordinates grow downwards; the canvas's grow upwards.
	at := func(p fixed.Point26_6) vg.Point {
		return vg.Point{X: pt.X + vg.Length(p.X)*scale, Y: pt.Y - vg.Length(p.Y)*scale}
	}
	var path vg.Path
	for i, sg := range segs {
		switch sg.Op {
		case sfnt.SegmentOpMoveTo:
			if i > 0 {
				path.Close()
			}
			path.Move(at(sg.Args[0]))
		case sfnt.SegmentOpLineTo:
			path.Line(at(sg.Args[0]))
		case sfnt.SegmentOpQuadTo:
			path.QuadTo(at(sg.Args[0]), at(sg.Args[1]))
		case sfnt.SegmentOpCubeTo:
			path.CubeTo(at(sg.Args[0]), at(sg.Args[1]), at(sg.Args[2]))
		}
	}
	if len(path) == 0 {
		return // a blank glyph, such as a space
	}
	path.Close()
	c.Fill(path)
}
