// Command mnist-estimate times single fits on the first n of MNIST's
// training images (datasets.LoadMNIST: pixels scaled to [0, 1], a bias
// feature) with the multiclass model and prints, per fit, the CPU seconds,
// iterations and the test error on the first test images. It exists to
// estimate the cost of Pletscher et al.'s Table 2 on the full data set
// (docs/pletscher.md); it is not an experiment. Its default fits are Table
// 2's, the paper's C' (weighing the regulariser, on pixels 0-255) as ours:
// C = 65025/C'.
//
//	go run ./scripts/mnist-estimate -data /work/shared/datasets/mnist -n 1000
//	go run ./scripts/mnist-estimate -n 60000 -test 10000 -trainer entropy-margin -beta 10 -C 0.065025
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"path/filepath"
	"syscall"
	"time"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

const pixels = 28 * 28

func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		log.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// read returns the first n images of an MNIST image file (its label file
// beside it) with the bias feature appended.
func read(path string, n int) ([]multiclass.Instance, error) {
	v, err := datasets.LoadMNIST(path)
	if err != nil {
		return nil, err
	}
	if v.Dim != pixels || n > len(v.Items) {
		return nil, fmt.Errorf("%s: %d images of %d pixels, want at least %d of %d", path, len(v.Items), v.Dim, n, pixels)
	}
	out := make([]multiclass.Instance, n)
	for i, it := range v.Items[:n] {
		x := structpred.SparseVec{Idx: append(it.X.Idx[:len(it.X.Idx):len(it.X.Idx)], pixels), Val: append(it.X.Val[:len(it.X.Val):len(it.X.Val)], 1)}
		out[i] = multiclass.Instance{X: x, Label: int(it.Label)}
	}
	return out, nil
}

func main() {
	dir := flag.String("data", "/work/shared/datasets/mnist", "directory of MNIST's idx .gz files")
	n := flag.Int("n", 1000, "training images (the first n)")
	nTest := flag.Int("test", 1000, "test images (the first n)")
	trainer := flag.String("trainer", "", "time one fit of this trainer (default: Table 2's four settings)")
	beta := flag.Float64("beta", 0, "the fit's beta (entropy-margin)")
	lossScale := flag.Float64("loss_scale", -1, "the fit's loss scale (entropy-margin; default the trainer's)")
	c := flag.Float64("C", 0, "the fit's C (ours: ½‖w‖² + C Σ loss)")
	maxIter := flag.Int("max_iterations", 0, "the fit's iteration cap (default the trainer's)")
	flag.Parse()
	train, err := read(filepath.Join(*dir, "train-images-idx3-ubyte.gz"), *n)
	if err != nil {
		log.Fatal(err)
	}
	test, err := read(filepath.Join(*dir, "t10k-images-idx3-ubyte.gz"), *nTest)
	if err != nil {
		log.Fatal(err)
	}
	m, err := multiclass.New(train, pixels+1, 10, decoders.Cost{})
	if err != nil {
		log.Fatal(err)
	}
	type fit struct {
		trainer string
		v       trainers.Values
	}
	// Table 2's settings (beta, C' as our C), the LR and the SVM at
	// their C' of 10^6.
	fits := []fit{
		{trainers.EntropyMarginName, trainers.Values{"beta": 1.0, "C": 65025 / 316227.8}},
		{trainers.EntropyMarginName, trainers.Values{"beta": 10.0, "C": 65025 / 1e6}},
		{trainers.EntropyMarginName, trainers.Values{"beta": 1000.0, "C": 65025 / 1e6}},
		{trainers.EntropyMarginName, trainers.Values{"beta": 1.0, "loss_scale": 0.0, "C": 65025 / 1e6}},
		{"margin", trainers.Values{"C": 65025 / 1e6}},
	}
	if *trainer != "" {
		v := trainers.Values{"C": *c}
		if *beta > 0 {
			v["beta"] = *beta
		}
		if *lossScale >= 0 {
			v["loss_scale"] = *lossScale
		}
		if *maxIter > 0 {
			v["max_iterations"] = *maxIter
		}
		fits = []fit{{*trainer, v}}
	}
	for _, f := range fits {
		c0, w0 := cpu(), time.Now()
		res, err := trainers.Train(context.Background(), f.trainer, m, f.v)
		if err != nil {
			log.Fatalf("%s %v: %v", f.trainer, f.v, err)
		}
		wrong := 0
		for _, t := range test {
			if m.Predict(t.X, res.W) != t.Label {
				wrong++
			}
		}
		fmt.Printf("%s %v: n=%d, %.1f CPU s, %.1f wall s, %d iterations, converged %v, test error %.2f%% (%d test images)\n",
			f.trainer, f.v, *n, (cpu() - c0).Seconds(), time.Since(w0).Seconds(), res.Iterations, res.Converged, 100*float64(wrong)/float64(len(test)), len(test))
	}
}
