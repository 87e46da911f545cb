package report

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// TTest is the result of a two-sided paired t-test of a against b.
type TTest struct {
	N        int      // number of pairs
	MeanDiff float64  // mean of a[i]-b[i]
	SD       float64  // unbiased standard deviation of the differences
	T        float64  // t statistic, MeanDiff/(SD/√N)
	DF       float64  // degrees of freedom, N-1
	P        float64  // two-sided p-value
	Warnings []string // conditions under which P should be read with care
}

// PairedTTest runs a two-sided paired t-test on a and b, where a[i] and
// b[i] are measured on the same split. With d = a-b it computes
// t = mean(d)/(sd(d)/√n) with the unbiased standard deviation and
// p = 2·P(T_{n-1} > |t|) for Student's t distribution with n-1 degrees of
// freedom.
//
// If all differences are equal (sd = 0) the statistic is undefined; rather
// than NaN, PairedTTest then reports P = 1 and T = 0 when the mean
// difference is 0, and P = 0 and T = ±Inf otherwise, with a warning.
//
// It returns an error if the slices differ in length, hold fewer than two
// pairs, or contain NaN or infinite values.
func PairedTTest(a, b []float64) (TTest, error) {
	if len(a) != len(b) {
		return TTest{}, fmt.Errorf("report: paired t-test: %d values vs %d", len(a), len(b))
	}
	n := len(a)
	if n < 2 {
		return TTest{}, fmt.Errorf("report: paired t-test: need at least 2 pairs, have %d", n)
	}
	d := make([]float64, n)
	for i := range a {
		if !isFinite(a[i]) || !isFinite(b[i]) {
			return TTest{}, fmt.Errorf("report: paired t-test: non-finite value in pair %d (%v, %v)", i, a[i], b[i])
		}
		d[i] = a[i] - b[i]
	}
	mean, sd := stat.MeanStdDev(d, nil)
	res := TTest{N: n, MeanDiff: mean, SD: sd, DF: float64(n - 1)}
	if sd == 0 {
		if mean == 0 {
			res.T, res.P = 0, 1
			res.Warnings = append(res.Warnings, "all differences are zero; p set to 1")
		} else {
			res.T, res.P = math.Copysign(math.Inf(1), mean), 0
			res.Warnings = append(res.Warnings, "all differences are equal and non-zero; p set to 0")
		}
		return res, nil
	}
	res.T = mean / stat.StdErr(sd, float64(n))
	res.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: res.DF}.Survival(math.Abs(res.T))
	return res, nil
}

// MeanStd returns the mean and the unbiased (n-1) standard deviation of xs.
// The standard deviation of a single value is 0; both are NaN for no values.
func MeanStd(xs []float64) (mean, std float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
