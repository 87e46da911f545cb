package features

import (
	"fmt"
	"math"
	"strconv"
)

// PixelCount is the number of pixels of an OCR letter image (16 rows × 8
// columns, row-major), the length of a token accepted by [Pixels].
const PixelCount = 16 * 8

// bias is the attribute every token gets, from [Pixels] as from [Extract].
const bias = "bias"

// Pixels returns the attributes of every letter of an OCR word, the explicit
// feature map of the polynomial kernel of the given degree on binary images
// (Taskar et al. 2003; Crammer et al. 2005 compare degree 1 and degree 2).
// Each token is a letter image as [PixelCount] characters '0' or '1' in
// row-major order, the token format of datasets.ParseOCR.
//
// Degree 1 gives "bias" and "pI" for every pixel I (0..127) that is on.
// Degree 2 adds "pI*pJ" for every pair I < J of pixels that are both on.
//
// Why these are the degree-2 features: for x, x' ∈ {0,1}ⁿ,
//
//	(x·x' + 1)² = 1 + 2 Σᵢ xᵢx'ᵢ + Σᵢ xᵢ²x'ᵢ² + 2 Σᵢ<ⱼ (xᵢxⱼ)(x'ᵢx'ⱼ)
//	            = 1 + 3 Σᵢ xᵢx'ᵢ + 2 Σᵢ<ⱼ (xᵢxⱼ)(x'ᵢx'ⱼ),
//
// a constant, linear and pairwise-product terms, where the squares fold into
// the linear terms because xᵢ² = xᵢ for binary pixels. So the kernel is the
// inner product of the feature vectors (1, √3·xᵢ, √2·xᵢxⱼ (i<j)), whose
// non-zero coordinates are exactly the bias, the on pixels and the pairs of
// on pixels named here. Pixels emits them as 0/1 indicators; a linear model
// on them spans the same functions as the kernel, the constants √3 and √2
// only rescaling the weights (which changes the effective regularisation of
// each group, not the hypothesis space). Degree 1 is the linear kernel plus
// a bias.
//
// Attributes come out in a fixed order — bias, pixels ascending, pairs in
// lexicographic (I, J) order — and never repeat within a token. A token that
// is not a 128-character 0/1 string, or a degree other than 1 or 2, is an
// error.
func Pixels(tokens []string, degree int) ([][]string, error) {
	if degree != 1 && degree != 2 {
		return nil, fmt.Errorf("pixels: degree %d, want 1 or 2", degree)
	}
	out := make([][]string, len(tokens))
	var sc pixelScratch
	for t, tok := range tokens {
		var err error
		if sc.on, err = onPixels(sc.on[:0], t, tok); err != nil {
			return nil, err
		}
		out[t] = sc.attrs(degree)
	}
	return out, nil
}

// onPixels appends to on the pixels of token t that are on, ascending, or
// returns the error of a token that is not a 128-character 0/1 string.
func onPixels(on []int, t int, tok string) ([]int, error) {
	if len(tok) != PixelCount {
		return nil, fmt.Errorf("pixels: token %d has %d characters, want %d", t, len(tok), PixelCount)
	}
	for i := range PixelCount {
		switch tok[i] {
		case '1':
			on = append(on, i)
		case '0':
		default:
			return nil, fmt.Errorf("pixels: token %d: pixel %d is %q, want '0' or '1'", t, i, tok[i])
		}
	}
	return on, nil
}

// PixelValues returns the values of the attributes [Pixels] gives for the
// same tokens and degree, position by position, such that each letter's
// feature vector is the polynomial kernel's feature map scaled to unit
// Euclidean norm: the explicit map of the normalised kernel
//
//	k̂(x, x') = k(x, x') / √(k(x, x)·k(x', x')),  k(x, x') = (x·x' + 1)^degree.
//
// For a letter with n pixels on, k(x, x) = (n+1)^degree. Degree 1's map is
// (1, xᵢ), so every attribute has the value 1/√(n+1). Degree 2's is
// (1, √3·xᵢ, √2·xᵢxⱼ) (see [Pixels]), so the bias has the value 1/(n+1),
// each pixel √3/(n+1) and each pair √2/(n+1). The inner product of two
// letters' vectors is then k̂, which lies in (0, 1], whatever the number of
// pixels on.
//
// Unnormalised, a degree-2 letter's indicator vector has a norm of about
// 20 on the OCR data (28 pixels on: 407 attributes), against 1 for the
// label-transition indicator of a chain model; normalised, both are 1.
// This is our reading of the feature normalisation of Taskar et al. that
// Crammer, McDonald & Pereira (2005) use on OCR (docs/config.md, Pixel
// normalisation). Tokens are checked as by [Pixels].
func PixelValues(tokens []string, degree int) ([][]float64, error) {
	if degree != 1 && degree != 2 {
		return nil, fmt.Errorf("pixels: degree %d, want 1 or 2", degree)
	}
	out := make([][]float64, len(tokens))
	var on []int
	for t, tok := range tokens {
		var err error
		if on, err = onPixels(on[:0], t, tok); err != nil {
			return nil, err
		}
		n := len(on)
		if degree == 1 {
			out[t] = make([]float64, 1+n)
			s := 1 / math.Sqrt(float64(n+1))
			for j := range out[t] {
				out[t][j] = s
			}
			continue
		}
		s := 1 / float64(n+1)
		vs := make([]float64, 1+n+n*(n-1)/2)
		vs[0] = s
		for j := 1; j <= n; j++ {
			vs[j] = math.Sqrt(3) * s
		}
		for j := 1 + n; j < len(vs); j++ {
			vs[j] = math.Sqrt2 * s
		}
		out[t] = vs
	}
	return out, nil
}

// pixelScratch is the working memory of [Pixels], reused across letters.
type pixelScratch struct {
	on   []int  // the letter's on pixels, ascending
	buf  []byte // all attribute names, concatenated
	ends []int  // end offset of each name in buf
}

// attrs returns the attributes of the letter whose on pixels are s.on. All
// names are written into one buffer and converted to a single string that
// the attributes slice, so a letter costs two allocations however many
// pairs it has.
func (s *pixelScratch) attrs(degree int) []string {
	s.buf = append(s.buf[:0], bias...)
	s.ends = append(s.ends[:0], len(s.buf))
	for _, i := range s.on {
		s.buf = appendPixel(s.buf, i)
		s.ends = append(s.ends, len(s.buf))
	}
	if degree == 2 {
		for a, i := range s.on {
			for _, j := range s.on[a+1:] {
				s.buf = append(appendPixel(s.buf, i), '*')
				s.buf = appendPixel(s.buf, j)
				s.ends = append(s.ends, len(s.buf))
			}
		}
	}
	names := string(s.buf)
	out := make([]string, len(s.ends))
	start := 0
	for k, end := range s.ends {
		out[k] = names[start:end]
		start = end
	}
	return out
}

// appendPixel appends the name "pI" of pixel i.
func appendPixel(buf []byte, i int) []byte {
	return strconv.AppendInt(append(buf, 'p'), int64(i), 10)
}
