// Command mnist-estimate times single fits on a subset of MNIST's training
// images (the first n, pixels scaled to [0, 1], nonzero ones only, a bias
// feature) with the multiclass model and prints, per fit, the CPU seconds,
// iterations and the test error on the first 1,000 test images. It exists
// to estimate the cost of Pletscher et al.'s Table 2 on the full data set
// (docs/pletscher.md); it is not an experiment.
//
//	go run ./scripts/mnist-estimate -data /work/shared/datasets/mnist -n 1000
package main

import (
	"compress/gzip"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"syscall"
	"time"

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

// read returns the first n images (bias appended) and labels of an idx pair.
func read(dir, images, labels string, n int) ([]multiclass.Instance, error) {
	open := func(name string, skip int) (io.Reader, func() error, error) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, err
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		if _, err := io.CopyN(io.Discard, z, int64(skip)); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: header: %w", name, err)
		}
		return z, f.Close, nil
	}
	img, closeImg, err := open(images, 16)
	if err != nil {
		return nil, err
	}
	defer closeImg()
	lab, closeLab, err := open(labels, 8)
	if err != nil {
		return nil, err
	}
	defer closeLab()
	out := make([]multiclass.Instance, n)
	buf := make([]byte, pixels)
	for i := range out {
		if _, err := io.ReadFull(img, buf); err != nil {
			return nil, fmt.Errorf("%s: image %d: %w", images, i, err)
		}
		var y [1]byte
		if err := binary.Read(lab, binary.BigEndian, &y); err != nil {
			return nil, fmt.Errorf("%s: label %d: %w", labels, i, err)
		}
		var x structpred.SparseVec
		for j, v := range buf {
			if v != 0 {
				x.Idx, x.Val = append(x.Idx, int32(j)), append(x.Val, float64(v)/255)
			}
		}
		x.Idx, x.Val = append(x.Idx, pixels), append(x.Val, 1)
		out[i] = multiclass.Instance{X: x, Label: int(y[0])}
	}
	return out, nil
}

func main() {
	dir := flag.String("data", "/work/shared/datasets/mnist", "directory of MNIST's idx .gz files")
	n := flag.Int("n", 1000, "training images (the first n)")
	flag.Parse()
	train, err := read(*dir, "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", *n)
	if err != nil {
		log.Fatal(err)
	}
	test, err := read(*dir, "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", 1000)
	if err != nil {
		log.Fatal(err)
	}
	m, err := multiclass.New(train, pixels+1, 10, decoders.Cost{})
	if err != nil {
		log.Fatal(err)
	}
	// Table 2's settings (beta, C), the LR and the SVM at the SVM's C.
	for _, f := range []struct {
		trainer string
		v       trainers.Values
	}{
		{trainers.EntropyMarginName, trainers.Values{"beta": 1.0, "loss_scale": 0.0, "C": 316227.8}},
		{trainers.EntropyMarginName, trainers.Values{"beta": 10.0, "C": 1e6}},
		{trainers.EntropyMarginName, trainers.Values{"beta": 1000.0, "C": 1e6}},
		{"margin", trainers.Values{"C": 1e6}},
	} {
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
		fmt.Printf("%s %v: n=%d, %.1f CPU s, %.1f wall s, %d iterations, converged %v, test error %.1f%% (1,000 test images)\n",
			f.trainer, f.v, *n, (cpu() - c0).Seconds(), time.Since(w0).Seconds(), res.Iterations, res.Converged, 100*float64(wrong)/float64(len(test)))
	}
}
