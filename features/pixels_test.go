package features_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/features"
)

// letterImage returns a letter token with the given pixels on.
func letterImage(on ...int) string {
	b := []byte(strings.Repeat("0", features.PixelCount))
	for _, i := range on {
		b[i] = '1'
	}
	return string(b)
}

func TestPixels(t *testing.T) {
	tests := []struct {
		name   string
		tokens []string
		degree int
		want   [][]string
	}{
		{"no tokens", nil, 2, [][]string{}},
		{"blank, degree 1", []string{letterImage()}, 1, [][]string{{"bias"}}},
		{"blank, degree 2", []string{letterImage()}, 2, [][]string{{"bias"}}},
		{"one pixel, degree 2", []string{letterImage(17)}, 2, [][]string{{"bias", "p17"}}},
		{"two pixels, degree 1", []string{letterImage(40, 17)}, 1, [][]string{{"bias", "p17", "p40"}}},
		{"two pixels, degree 2", []string{letterImage(40, 17)}, 2, [][]string{{"bias", "p17", "p40", "p17*p40"}}},
		{
			name:   "corners and middle, degree 2",
			tokens: []string{letterImage(0, 7, 64, 127)},
			degree: 2,
			want: [][]string{{"bias", "p0", "p7", "p64", "p127",
				"p0*p7", "p0*p64", "p0*p127", "p7*p64", "p7*p127", "p64*p127"}},
		},
		{
			name:   "word of three letters, degree 2",
			tokens: []string{letterImage(1, 2, 3), letterImage(), letterImage(9, 8)},
			degree: 2,
			want: [][]string{
				{"bias", "p1", "p2", "p3", "p1*p2", "p1*p3", "p2*p3"},
				{"bias"},
				{"bias", "p8", "p9", "p8*p9"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := features.Pixels(tt.tokens, tt.degree)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Pixels = %q, want %q", got, tt.want)
			}
			for i := range got {
				if !slices.Equal(got[i], tt.want[i]) {
					t.Errorf("token %d: Pixels = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestPixelCountMatchesOCR(t *testing.T) {
	if features.PixelCount != datasets.OCRPixels {
		t.Fatalf("PixelCount = %d, datasets.OCRPixels = %d", features.PixelCount, datasets.OCRPixels)
	}
}

func TestPixelsFullImage(t *testing.T) {
	all := strings.Repeat("1", features.PixelCount)
	for _, tt := range []struct{ degree, want int }{{1, 1 + 128}, {2, 1 + 128 + 128*127/2}} {
		got, err := features.Pixels([]string{all}, tt.degree)
		if err != nil {
			t.Fatal(err)
		}
		attrs := got[0]
		if len(attrs) != tt.want || len(slices.Compact(slices.Sorted(slices.Values(attrs)))) != tt.want {
			t.Errorf("degree %d: %d attributes (distinct or not), want %d distinct", tt.degree, len(attrs), tt.want)
		}
		if last := attrs[len(attrs)-1]; tt.degree == 2 && last != "p126*p127" {
			t.Errorf("last attribute %q, want p126*p127", last)
		}
	}
}

func TestPixelsErrors(t *testing.T) {
	ok := letterImage(3)
	tests := []struct {
		name    string
		tokens  []string
		degree  int
		wantErr string
	}{
		{"degree 0", []string{ok}, 0, "degree 0, want 1 or 2"},
		{"degree 3", []string{ok}, 3, "degree 3, want 1 or 2"},
		{"short token", []string{ok, ok[1:]}, 2, "token 1 has 127 characters, want 128"},
		{"long token", []string{ok + "0"}, 1, "token 0 has 129 characters"},
		{"empty token", []string{""}, 1, "token 0 has 0 characters"},
		{"pixel 2", []string{ok, ok, ok[:5] + "2" + ok[6:]}, 2, `token 2: pixel 5 is '2'`},
		{"space", []string{ok[:127] + " "}, 1, `token 0: pixel 127 is ' '`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := features.Pixels(tt.tokens, tt.degree)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Pixels = %q, %v; want error containing %q", got, err, tt.wantErr)
			}
		})
	}
}

// TestPixelsKernel checks the documented identity: with weight 1 on the
// bias, √3 on pixels and √2 on pairs, the inner product of two letters'
// feature vectors is (x·x'+1)², so weighting the shared attributes by
// 1, 3 and 2 must give the kernel exactly.
func TestPixelsKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomLetter := func() (string, []bool) {
		x := make([]bool, features.PixelCount)
		var on []int
		density := rng.Float64()
		for i := range x {
			if rng.Float64() < density {
				x[i] = true
				on = append(on, i)
			}
		}
		return letterImage(on...), x
	}
	for trial := range 200 {
		a, x := randomLetter()
		b, y := randomLetter()
		dot := 0
		for i := range x {
			if x[i] && y[i] {
				dot++
			}
		}
		attrs, err := features.Pixels([]string{a, b}, 2)
		if err != nil {
			t.Fatal(err)
		}
		other := make(map[string]bool, len(attrs[1]))
		for _, attr := range attrs[1] {
			other[attr] = true
		}
		inner := 0
		for _, attr := range attrs[0] {
			if !other[attr] {
				continue
			}
			switch {
			case attr == "bias":
				inner++
			case strings.Contains(attr, "*"):
				inner += 2
			default:
				inner += 3
			}
		}
		if want := (dot + 1) * (dot + 1); inner != want {
			t.Fatalf("trial %d: weighted shared attributes %d, (x·x'+1)² = %d", trial, inner, want)
		}
	}
}

// TestPixelsOCRFold0 counts the distinct attributes of the training words of
// OCR fold 0: every pixel and every pair of pixels is on together in some
// letter, so all 1+128 and 1+128+8128 attributes occur. It needs
// $REPRO_DATA/ocr/letter.data.gz.
func TestPixelsOCRFold0(t *testing.T) {
	dir := os.Getenv(datasets.EnvDataDir)
	if dir == "" {
		t.Skip("REPRO_DATA not set")
	}
	path := filepath.Join(dir, "ocr", "letter.data.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no OCR data: %v", err)
	}
	c, folds, err := datasets.LoadOCRFolds(path)
	if err != nil {
		t.Fatal(err)
	}
	split, err := datasets.FoldSplits(folds, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ degree, want int }{{1, 1 + 128}, {2, 1 + 128 + 128*127/2}} {
		var seqs [][][]string
		for _, s := range c.Select(split.Train) {
			attrs, err := features.Pixels(s.Tokens, tt.degree)
			if err != nil {
				t.Fatalf("%s: %v", s.ID, err)
			}
			seqs = append(seqs, attrs)
		}
		idx := features.BuildIndex(seqs)
		t.Logf("fold 0 (%d words): %d distinct degree-%d attributes", len(split.Train), idx.Len(), tt.degree)
		if idx.Len() != tt.want {
			t.Errorf("fold 0: %d distinct degree-%d attributes, want %d", idx.Len(), tt.degree, tt.want)
		}
	}
}

// BenchmarkPixels extracts the attributes of a 10-letter word whose letters
// have 28 pixels on each, the mean of the OCR data.
func BenchmarkPixels(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	word := make([]string, 10)
	for t := range word {
		word[t] = letterImage(rng.Perm(features.PixelCount)[:28]...)
	}
	for _, degree := range []int{1, 2} {
		b.Run(fmt.Sprintf("degree%d", degree), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := features.Pixels(word, degree); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func ExamplePixels() {
	// A letter with pixels 0, 9 and 17 on: the top-left corner and a short
	// diagonal stroke below it.
	letter := []byte(strings.Repeat("0", features.PixelCount))
	letter[0], letter[9], letter[17] = '1', '1', '1'
	attrs, err := features.Pixels([]string{string(letter)}, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(attrs[0])
	// Output:
	// [bias p0 p9 p17 p0*p9 p0*p17 p9*p17]
}

func TestPixelValues(t *testing.T) {
	r2, r3 := math.Sqrt2, math.Sqrt(3)
	tests := []struct {
		name   string
		tokens []string
		degree int
		want   [][]float64
	}{
		{"no tokens", nil, 2, [][]float64{}},
		{"blank, degree 1", []string{letterImage()}, 1, [][]float64{{1}}},
		{"blank, degree 2", []string{letterImage()}, 2, [][]float64{{1}}},
		// n = 3 on: k(x, x) = 4, so every value is 1/2.
		{"three pixels, degree 1", []string{letterImage(0, 5, 127)}, 1, [][]float64{{0.5, 0.5, 0.5, 0.5}}},
		// n = 1: k(x, x) = (1+1)² = 4, ‖φ‖ = 2.
		{"one pixel, degree 2", []string{letterImage(17)}, 2, [][]float64{{0.5, r3 / 2}}},
		// n = 2: ‖φ‖ = 3; 1/9 + 2·3/9 + 2/9 = 1.
		{"two pixels, degree 2", []string{letterImage(40, 17)}, 2, [][]float64{{1.0 / 3, r3 / 3, r3 / 3, r2 / 3}}},
		{
			name:   "word of three letters, degree 2",
			tokens: []string{letterImage(1, 2, 3), letterImage(), letterImage(9, 8)},
			degree: 2,
			want: [][]float64{
				// n = 3: ‖φ‖ = 4; 1/16 + 3·3/16 + 3·2/16 = 1.
				{0.25, r3 / 4, r3 / 4, r3 / 4, r2 / 4, r2 / 4, r2 / 4},
				{1},
				{1.0 / 3, r3 / 3, r3 / 3, r2 / 3},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := features.PixelValues(tt.tokens, tt.degree)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("PixelValues = %v, want %v", got, tt.want)
			}
			for i := range got {
				if !slices.EqualFunc(got[i], tt.want[i], func(a, b float64) bool { return math.Abs(a-b) <= 1e-15 }) {
					t.Errorf("token %d: PixelValues = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestPixelValuesErrors(t *testing.T) {
	ok := letterImage(3)
	for _, tt := range []struct {
		tokens  []string
		degree  int
		wantErr string
	}{
		{[]string{ok}, 3, "degree 3, want 1 or 2"},
		{[]string{ok, ok[1:]}, 2, "token 1 has 127 characters, want 128"},
		{[]string{ok[:5] + "2" + ok[6:]}, 1, `token 0: pixel 5 is '2'`},
	} {
		if got, err := features.PixelValues(tt.tokens, tt.degree); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("PixelValues(degree %d) = %v, %v; want error containing %q", tt.degree, got, err, tt.wantErr)
		}
	}
}

// TestPixelValuesNormalisedKernel checks PixelValues against the kernel it
// documents: the values line up with Pixels' attributes, each letter's
// vector has norm 1, and the inner product of two letters' vectors (over
// the attributes they share) is (x·x'+1)^d / √((n+1)^d (n'+1)^d), computed
// here from the pixel counts alone.
func TestPixelValuesNormalisedKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	randomLetter := func() (string, int) {
		on := rng.Perm(features.PixelCount)[:rng.IntN(features.PixelCount+1)]
		return letterImage(on...), len(on)
	}
	for _, degree := range []int{1, 2} {
		for trial := range 100 {
			a, n := randomLetter()
			b, m := randomLetter()
			dot := 0
			for i := range features.PixelCount {
				if a[i] == '1' && b[i] == '1' {
					dot++
				}
			}
			attrs, err := features.Pixels([]string{a, b}, degree)
			if err != nil {
				t.Fatal(err)
			}
			vals, err := features.PixelValues([]string{a, b}, degree)
			if err != nil {
				t.Fatal(err)
			}
			other := map[string]float64{}
			for t2 := range 2 {
				if len(vals[t2]) != len(attrs[t2]) {
					t.Fatalf("degree %d trial %d: %d values for %d attributes", degree, trial, len(vals[t2]), len(attrs[t2]))
				}
				norm := 0.0
				for _, v := range vals[t2] {
					norm += v * v
				}
				if math.Abs(norm-1) > 1e-12 {
					t.Fatalf("degree %d trial %d: squared norm %v, want 1", degree, trial, norm)
				}
			}
			for j, attr := range attrs[1] {
				other[attr] = vals[1][j]
			}
			inner := 0.0
			for j, attr := range attrs[0] {
				inner += vals[0][j] * other[attr]
			}
			d := float64(degree)
			want := math.Pow(float64(dot+1), d) / math.Sqrt(math.Pow(float64(n+1), d)*math.Pow(float64(m+1), d))
			if math.Abs(inner-want) > 1e-12 {
				t.Fatalf("degree %d trial %d (n=%d, n'=%d, x·x'=%d): inner product %v, normalised kernel %v", degree, trial, n, m, dot, inner, want)
			}
		}
	}
}
