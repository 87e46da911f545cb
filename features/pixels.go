package features

import (
	"fmt"
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
		if len(tok) != PixelCount {
			return nil, fmt.Errorf("pixels: token %d has %d characters, want %d", t, len(tok), PixelCount)
		}
		sc.on = sc.on[:0]
		for i := range PixelCount {
			switch tok[i] {
			case '1':
				sc.on = append(sc.on, i)
			case '0':
			default:
				return nil, fmt.Errorf("pixels: token %d: pixel %d is %q, want '0' or '1'", t, i, tok[i])
			}
		}
		out[t] = sc.attrs(degree)
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
