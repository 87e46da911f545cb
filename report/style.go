package report

import (
	"hash/fnv"
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// trainerStyle returns the colour and marker of a trainer. Known trainers
// have fixed styles so that a trainer looks the same in every figure and
// every report; colours are from the Okabe-Ito palette, which stays
// distinguishable under common colour-vision deficiencies, and the markers
// differ too so that the figures survive greyscale printing. Other names
// get a style derived from a hash of the name, so it is stable across runs
// but may coincide with another trainer's.
func trainerStyle(trainer string) (color.Color, draw.GlyphDrawer) {
	switch trainer {
	case "margin":
		return rgb(0x0072B2), draw.CircleGlyph{} // blue
	case "slack":
		return rgb(0xD55E00), draw.BoxGlyph{} // vermillion
	case "approx-slack":
		return rgb(0xE69F00), draw.PyramidGlyph{} // orange
	case "poslearn":
		return rgb(0x009E73), diamondGlyph{} // bluish green
	case "perceptron":
		return rgb(0xCC79A7), draw.CrossGlyph{} // reddish purple
	case "mira":
		return rgb(0x56B4E9), draw.PlusGlyph{} // sky blue
	case "subgradient":
		return rgb(0x555555), draw.RingGlyph{} // dark grey
	case "crf":
		return rgb(0x000000), draw.SquareGlyph{} // black
	case "entropy-margin":
		return rgb(0x8C510A), draw.TriangleGlyph{} // brown
	}
	colours := []color.Color{
		rgb(0x7570B3), rgb(0xE7298A), rgb(0x66A61E), rgb(0xA6761D), rgb(0x1B9E77), rgb(0x999999),
	}
	glyphs := []draw.GlyphDrawer{
		draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, diamondGlyph{},
		draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
	}
	h := fnv.New32a()
	h.Write([]byte(trainer)) // never fails
	n := h.Sum32()
	return colours[n%uint32(len(colours))], glyphs[n/uint32(len(colours))%uint32(len(glyphs))]
}

// rgb converts 0xRRGGBB to an opaque colour.
func rgb(v uint32) color.Color {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// diamondGlyph is a filled diamond, a fourth filled shape beside the
// circle, box and pyramid that gonum provides.
type diamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer; the canvas colour is already set
// by draw.Canvas.DrawGlyph.
func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.2 // a diamond of radius r looks smaller than a circle
	p := make(vg.Path, 0, 5)
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Fill(p)
}
