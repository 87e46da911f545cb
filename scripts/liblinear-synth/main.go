// Command liblinear-synth runs liblinear (Debian's liblinear-tools:
// liblinear-train, liblinear-predict) on Pletscher et al.'s Synth1–3, the
// same draws the repro config pletscher-synth trains on (datasets.Synth,
// instantiation k drawn with seed k+1, written as libsvm files), and
// writes the error rate and the cost-weighted error of each solver,
// averaged over the instantiations, as a text table: Table 1's liblinear
// rows. Every solver runs with -c 1 -B 1 (C = 1 as the paper fixes it, on
// the sum of the losses; a bias feature of value 1, regularised, as the
// repro multiclass task adds one), and with the 0/1 loss: liblinear takes
// no cost matrix, as the paper's caption says.
//
//	go run ./scripts/liblinear-synth -out results/pletscher-synth/liblinear/table.txt
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/datasets"
)

// solver is one liblinear run: its -s and how it treats several classes.
type solver struct {
	s      int
	name   string
	scheme string
	paper  []float64 // Table 1, Synth1–3; nil: not in the paper
}

var solvers = []solver{
	{0, "LR (-s 0)", "L2-regularised logistic regression, one-vs-rest", []float64{41.7, 26.5, 44.5}},
	{4, "SVM (-s 4)", "Crammer & Singer multiclass SVM", nil},
	{1, "SVM (-s 1, default)", "L2-regularised L2-loss SVM (dual), one-vs-rest", []float64{44.0, 31.9, 50.2}},
}

func main() {
	out := flag.String("out", "", "the table's file (default: standard output)")
	train := flag.String("train", "liblinear-train", "liblinear's train program")
	predict := flag.String("predict", "liblinear-predict", "liblinear's predict program")
	flag.Parse()
	version, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", "liblinear-tools").Output()
	if err != nil {
		version = []byte("unknown (dpkg-query failed)")
	}
	dir, err := os.MkdirTemp("", "liblinear-synth")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var b strings.Builder
	fmt.Fprintf(&b, "liblinear on Pletscher et al.'s Synth1-3 (Table 1's liblinear rows), written by scripts/liblinear-synth\n")
	fmt.Fprintf(&b, "liblinear-tools %s; -c 1 -B 1; %d instantiations (seed k+1), %d training and %d test points per class; 0/1 loss in training\n",
		version, datasets.SynthInstances, datasets.SynthTrainPerClass, datasets.SynthTestPerClass)
	fmt.Fprintf(&b, "error: error rate (%%); cost error: cost-weighted error (%%, the generator's cost matrix); mean ± std over instantiations\n\n")
	fmt.Fprintf(&b, "%-8s  %-20s  %-14s  %-14s  %-12s  %s\n", "dataset", "solver", "error", "cost error", "paper", "multiclass scheme")
	for d, name := range datasets.SynthNames() {
		spec, err := datasets.Synth(name)
		if err != nil {
			log.Fatal(err)
		}
		for _, sv := range solvers {
			var rates, costs []float64
			for k := range datasets.SynthInstances {
				rate, cost, err := runOnce(dir, spec, k, sv, *train, *predict)
				if err != nil {
					log.Fatalf("%s instantiation %d, %s: %v", name, k+1, sv.name, err)
				}
				rates, costs = append(rates, rate), append(costs, cost)
			}
			paper := "-"
			if sv.paper != nil {
				paper = strconv.FormatFloat(sv.paper[d], 'f', 1, 64)
			}
			fmt.Fprintf(&b, "%-8s  %-20s  %-14s  %-14s  %-12s  %s\n", name, sv.name, meanStd(rates), meanStd(costs), paper, sv.scheme)
		}
	}
	b.WriteString("\npaper: Table 1's \"liblinear LR\" and \"liblinear SVM\" rows, compared as the cost-weighted error; the paper does not say which solver its SVM row is (liblinear's default, -s 1, is shown against it)\n")
	if *out == "" {
		fmt.Print(b.String())
		return
	}
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

// runOnce trains solver sv on instantiation k's training draw and returns
// the error rate and cost-weighted error of its predictions on the test
// draw.
func runOnce(dir string, spec datasets.SynthSpec, k int, sv solver, train, predict string) (rate, cost float64, err error) {
	paths := map[string]string{}
	var test []datasets.Vector
	for _, part := range []string{"train", "test"} {
		n := datasets.SynthTrainPerClass
		if part == "test" {
			n = datasets.SynthTestPerClass
		}
		v, err := spec.Draw(n, uint64(k+1), part, false)
		if err != nil {
			return 0, 0, err
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-%d-%s.libsvm", spec.Name, k+1, part))
		var buf bytes.Buffer
		if err := datasets.WriteLibSVM(&buf, v); err != nil {
			return 0, 0, err
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return 0, 0, err
		}
		paths[part] = path
		if part == "test" {
			test = v.Items
		}
	}
	model := filepath.Join(dir, "model")
	pred := filepath.Join(dir, "pred")
	if o, err := exec.Command(train, "-s", strconv.Itoa(sv.s), "-c", "1", "-B", "1", "-q", paths["train"], model).CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w\n%s", train, err, o)
	}
	if o, err := exec.Command(predict, paths["test"], model, pred).CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w\n%s", predict, err, o)
	}
	f, err := os.Open(pred)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	K := spec.Classes()
	sc := bufio.NewScanner(f)
	i, wrong, total := 0, 0, 0.0
	for ; sc.Scan(); i++ {
		y, err := strconv.ParseFloat(strings.TrimSpace(sc.Text()), 64)
		if err != nil || i >= len(test) || y != math.Trunc(y) || y < 0 || int(y) >= K {
			return 0, 0, fmt.Errorf("%s line %d: %q", pred, i+1, sc.Text())
		}
		g := int(test[i].Label)
		if int(y) != g {
			wrong++
		}
		total += spec.Cost[g*K+int(y)]
	}
	if err := sc.Err(); err != nil {
		return 0, 0, err
	}
	if i != len(test) {
		return 0, 0, fmt.Errorf("%s: %d predictions for %d test points", pred, i, len(test))
	}
	return 100 * float64(wrong) / float64(i), 100 * total / float64(i), nil
}

func meanStd(v []float64) string {
	var m, s float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	if len(v) > 1 {
		s = math.Sqrt(s / float64(len(v)-1))
	}
	return fmt.Sprintf("%.1f ± %.1f", m, s)
}
