package report

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mathext"
)

// independentTTest recomputes a paired t-test without gonum's stat and
// distuv: the sample variance from the sum of squared deviations, and the
// two-sided p-value as the regularized incomplete beta function
// I_{ν/(ν+t²)}(ν/2, 1/2).
func independentTTest(a, b []float64) (mean, sd, t, p float64) {
	n := float64(len(a))
	for i := range a {
		mean += a[i] - b[i]
	}
	mean /= n
	var ss float64
	for i := range a {
		dev := a[i] - b[i] - mean
		ss += dev * dev
	}
	sd = math.Sqrt(ss / (n - 1))
	t = mean / (sd / math.Sqrt(n))
	nu := n - 1
	p = mathext.RegIncBeta(nu/2, 0.5, nu/(nu+t*t))
	return mean, sd, t, p
}

func TestPairedTTestReference(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		a, b         []float64
		wantT, wantP float64 // reference values
		tolT, tolP   float64
	}{
		{
			// Student's sleep data (Cushny & Peebles 1905); R's
			// t.test(extra ~ group, data = sleep, paired = TRUE) prints
			// t = -4.0621, df = 9, p-value = 0.002833.
			name:  "sleep",
			a:     []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0},
			b:     []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4},
			wantT: -4.0621, tolT: 5e-5,
			wantP: 0.002833, tolP: 5e-7,
		},
		{
			// ν = 1 is the Cauchy distribution: d = (1, 3) gives t = 2 and
			// p = 1 - (2/π)·atan(2).
			name:  "df1",
			a:     []float64{1, 3},
			b:     []float64{0, 0},
			wantT: 2, tolT: 1e-12,
			wantP: 1 - 2/math.Pi*math.Atan(2), tolP: 1e-12,
		},
		{
			// ν = 2 has p = 1 - |t|/√(2+t²): d = (1, 2, 6) gives
			// t = √(27/7) and p = 1 - √(27/41).
			name:  "df2",
			a:     []float64{1, 2, 6},
			b:     []float64{0, 0, 0},
			wantT: math.Sqrt(27.0 / 7), tolT: 1e-12,
			wantP: 1 - math.Sqrt(27.0/41), tolP: 1e-12,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := PairedTTest(tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.T-tc.wantT) > tc.tolT || math.Abs(got.P-tc.wantP) > tc.tolP {
				t.Errorf("t, p = %v, %v; want %v, %v", got.T, got.P, tc.wantT, tc.wantP)
			}
			mean, sd, tt, p := independentTTest(tc.a, tc.b)
			for _, c := range []struct {
				name      string
				got, want float64
			}{
				{"mean", got.MeanDiff, mean}, {"sd", got.SD, sd}, {"t", got.T, tt}, {"p", got.P, p},
				{"df", got.DF, float64(len(tc.a) - 1)}, {"n", float64(got.N), float64(len(tc.a))},
			} {
				if !scalar.EqualWithinAbsOrRel(c.got, c.want, 1e-10, 1e-10) {
					t.Errorf("%s = %v; independent computation gives %v", c.name, c.got, c.want)
				}
			}
			if len(got.Warnings) != 0 {
				t.Errorf("unexpected warnings %q", got.Warnings)
			}
		})
	}
}

func TestPairedTTestSymmetric(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	for n := 2; n <= 12; n++ {
		a, b := make([]float64, n), make([]float64, n)
		for i := range a {
			a[i] = 10 + rng.NormFloat64()
			b[i] = 10.5 + rng.NormFloat64()
		}
		ab, err := PairedTTest(a, b)
		if err != nil {
			t.Fatal(err)
		}
		ba, err := PairedTTest(b, a)
		if err != nil {
			t.Fatal(err)
		}
		if !scalar.EqualWithinAbsOrRel(ab.P, ba.P, 1e-14, 1e-14) || ab.T != -ba.T || ab.MeanDiff != -ba.MeanDiff {
			t.Errorf("n=%d: (a,b) gives t=%v p=%v, (b,a) gives t=%v p=%v", n, ab.T, ab.P, ba.T, ba.P)
		}
		if ab.P <= 0 || ab.P > 1 {
			t.Errorf("n=%d: p = %v out of (0, 1]", n, ab.P)
		}
	}
}

func TestPairedTTestDegenerate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		a, b         []float64
		wantT, wantP float64
		wantWarning  string
	}{
		{"identical", []float64{1, 2, 3}, []float64{1, 2, 3}, 0, 1, "all differences are zero"},
		{"constant shift up", []float64{2, 3, 4}, []float64{1, 2, 3}, math.Inf(1), 0, "equal and non-zero"},
		{"constant shift down", []float64{1, 2, 3}, []float64{2, 3, 4}, math.Inf(-1), 0, "equal and non-zero"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := PairedTTest(tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if got.T != tc.wantT || got.P != tc.wantP || got.SD != 0 {
				t.Errorf("t, p, sd = %v, %v, %v; want %v, %v, 0", got.T, got.P, got.SD, tc.wantT, tc.wantP)
			}
			if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], tc.wantWarning) {
				t.Errorf("warnings = %q; want one containing %q", got.Warnings, tc.wantWarning)
			}
		})
	}
}

func TestPairedTTestErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b []float64
		want string
	}{
		{"empty", nil, nil, "at least 2 pairs"},
		{"one pair", []float64{1}, []float64{2}, "at least 2 pairs"},
		{"length mismatch", []float64{1, 2, 3}, []float64{1, 2}, "3 values vs 2"},
		{"NaN", []float64{1, math.NaN()}, []float64{1, 2}, "non-finite"},
		{"Inf", []float64{1, 2}, []float64{math.Inf(1), 2}, "non-finite"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := PairedTTest(tc.a, tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v; want one containing %q", err, tc.want)
			}
		})
	}
}

func TestMeanStd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		xs            []float64
		mean, std     float64
		wantNaNResult bool
	}{
		{name: "empty", xs: nil, wantNaNResult: true},
		{name: "one", xs: []float64{3.5}, mean: 3.5, std: 0},
		{name: "two", xs: []float64{1, 3}, mean: 2, std: math.Sqrt2},
		{name: "textbook", xs: []float64{2, 4, 4, 4, 5, 5, 7, 9}, mean: 5, std: math.Sqrt(32.0 / 7)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mean, std := MeanStd(tc.xs)
			if tc.wantNaNResult {
				if !math.IsNaN(mean) || !math.IsNaN(std) {
					t.Errorf("MeanStd = %v, %v; want NaN, NaN", mean, std)
				}
				return
			}
			if !scalar.EqualWithinAbsOrRel(mean, tc.mean, 1e-14, 1e-14) || !scalar.EqualWithinAbsOrRel(std, tc.std, 1e-14, 1e-14) {
				t.Errorf("MeanStd = %v, %v; want %v, %v", mean, std, tc.mean, tc.std)
			}
		})
	}
}
