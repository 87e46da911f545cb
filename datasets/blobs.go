package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/maxmargin/repro/structpred"
)

// Blobs draws a multiclass data set of Gaussian blobs: perClass points
// around each of the centres means[c] (class c, label c), every coordinate
// with standard deviation sd, dense. Items alternate between the classes
// (item i has class i mod K), so that any prefix is balanced. The same
// arguments give the same points. Pletscher et al.'s Synth1–3 are such
// blobs (isotropic covariances).
func Blobs(means [][]float64, sd float64, perClass int, seed uint64) (*Vectors, error) {
	k := len(means)
	switch {
	case k == 0:
		return nil, fmt.Errorf("blobs: no centres")
	case !(sd >= 0) || math.IsInf(sd, 0):
		return nil, fmt.Errorf("blobs: standard deviation %v", sd)
	case perClass < 0:
		return nil, fmt.Errorf("blobs: %d points per class", perClass)
	}
	d := len(means[0])
	for c, m := range means {
		if len(m) != d {
			return nil, fmt.Errorf("blobs: centre %d has %d coordinates, centre 0 has %d", c, len(m), d)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x626c6f6273))
	out := &Vectors{Name: "blobs", Dim: d, Items: make([]Vector, k*perClass)}
	for i := range out.Items {
		c := i % k
		x := structpred.SparseVec{Idx: make([]int32, d), Val: make([]float64, d)}
		for j := range d {
			x.Idx[j], x.Val[j] = int32(j), means[c][j]+sd*rng.NormFloat64()
		}
		out.Items[i] = Vector{Label: float64(c), X: x}
	}
	return out, nil
}

// DefaultBlobs is the built-in data set "blobs": 4 classes of 60 points
// each around the corners (±1, ±1) of a square, standard deviation 0.8
// (so the classes overlap and a linear classifier errs on some), seed 1.
func DefaultBlobs() (*Vectors, error) {
	return Blobs([][]float64{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}, 0.8, 60, 1)
}
