package experiments

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/cputime"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// EnvCRFsuite names the crfsuite binary BenchmarkCRFsuite compares with
// (default: crfsuite on PATH); its shared library must be on
// LD_LIBRARY_PATH (see ../shared/peers/build-crfsuite.sh).
const EnvCRFsuite = "REPRO_CRFSUITE"

// BenchmarkCRFsuite trains a CRF of Cora split 0 (25% train, repro's
// citation attributes written as a CRFsuite attribute file and read back,
// so both sides see the same file) at C = 1 (CRFsuite's c2 = 1/(2C)), both
// with CRFsuite's stopping rule (stop: crfsuite, its defaults) and 6
// correction pairs, and reports process CPU per L-BFGS iteration (line
// search) and per training, and the token error on the split's test part
// (written as an attribute file too). Two models: full, every attribute ×
// label pair (CRFsuite with feature.possible_states and
// possible_transitions), and seen, the pairs seen in training (repro's
// pairs: seen, CRFsuite's default). With CRFsuite installed it trains
// CRFsuite on the same file in the same loop (interleaved pairs) and
// reports the ratios; CRFsuite's iteration time is the sum of its log's
// per-iteration seconds (clock(), process CPU), its training time the
// child's CPU, its token error that of `crfsuite tag -qt` on the test
// file. Without CRFsuite, compare repro's numbers with another commit's
// (scripts/crfbench.sh does both).
func BenchmarkCRFsuite(b *testing.B) {
	train, test, trainInsts, insts, numAttrs, k := benchCRFsuiteFiles(b)
	peer := os.Getenv(EnvCRFsuite)
	if peer == "" {
		peer, _ = exec.LookPath("crfsuite")
	}
	for _, model := range []string{"full", "seen"} {
		b.Run(model, func(b *testing.B) {
			m, err := chain.New(trainInsts, numAttrs, k, true, decoders.Cost{})
			if err == nil && model == "seen" {
				err = m.Restrict(chain.SeenPairs(trainInsts, numAttrs, k))
			}
			if err != nil {
				b.Fatal(err)
			}
			benchCRFsuite(b, peer, train, test, m, insts, model == "full")
		})
	}
}

// benchCRFsuite is one model of BenchmarkCRFsuite: full asks CRFsuite for
// every attribute × label pair.
func benchCRFsuite(b *testing.B, peer, train, test string, m *chain.Model, insts []chain.Instance, full bool) {
	const c = 1.0
	var repro, crfsuite struct {
		iters         int
		train, perIts float64 // CPU seconds: trainings, iterations
		objective     float64
		tokenError    float64
	}
	for b.Loop() {
		t0 := cputime.ProcessSeconds()
		res, err := trainers.CRF(context.Background(), m, trainers.CRFSettings{C: c, Stop: trainers.StopCRFsuite})
		if err != nil {
			b.Fatal(err)
		}
		cpu := cputime.ProcessSeconds() - t0
		repro.train += cpu
		repro.iters = res.Iterations - 1 // line searches: gonum counts the starting point
		repro.perIts += cpu / float64(repro.iters)
		repro.objective = res.Primal / c // CRFsuite's scale
		repro.tokenError = benchTokenError(m, insts, res.W)
		if peer == "" {
			continue
		}
		model := filepath.Join(b.TempDir(), "model")
		args := []string{"learn", "-a", "lbfgs", "-p", "c2=" + strconv.FormatFloat(1/(2*c), 'g', -1, 64), "-p", "num_memories=6"}
		if full {
			args = append(args, "-p", "feature.possible_states=1", "-p", "feature.possible_transitions=1")
		}
		cmd := exec.Command(peer, append(args, "-m", model, train)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%s: %v\n%s", peer, err, out)
		}
		iters, secs, loss := crfsuiteLog(b, out)
		crfsuite.iters, crfsuite.objective = iters, loss
		crfsuite.train += (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		crfsuite.perIts += secs / float64(iters)
		crfsuite.tokenError = crfsuiteTokenError(b, peer, model, test)
	}
	n := float64(b.N)
	b.ReportMetric(repro.perIts/n*1e3, "cpu-ms/iter")
	b.ReportMetric(repro.train/n, "cpu-s/train")
	b.ReportMetric(float64(repro.iters), "iters")
	b.ReportMetric(repro.tokenError, "token-error-%")
	b.Logf("repro: %d weights, %d iterations, objective/C %.10g, token error %.2f%%", m.Dim(), repro.iters, repro.objective, repro.tokenError)
	if peer == "" {
		b.Logf("CRFsuite not found ($%s or crfsuite on PATH): compare with another commit", EnvCRFsuite)
		return
	}
	b.ReportMetric(crfsuite.perIts/n*1e3, "crfsuite-cpu-ms/iter")
	b.ReportMetric(crfsuite.train/n, "crfsuite-cpu-s/train")
	b.ReportMetric(float64(crfsuite.iters), "crfsuite-iters")
	b.ReportMetric(crfsuite.tokenError, "crfsuite-token-error-%")
	b.ReportMetric(repro.perIts/crfsuite.perIts, "×crfsuite/iter")
	b.ReportMetric(repro.train/crfsuite.train, "×crfsuite/train")
	b.Logf("CRFsuite: %d iterations, objective %.10g, token error %.2f%%", crfsuite.iters, crfsuite.objective, crfsuite.tokenError)
}

// benchTokenError returns the percentage of the test tokens m labels
// wrongly at w.
func benchTokenError(m *chain.Model, test []chain.Instance, w []float64) float64 {
	var errs, n int
	for _, x := range test {
		for t, y := range m.Predict(x, w) {
			if y != x.Labels[t] {
				errs++
			}
		}
		n += len(x.Labels)
	}
	return 100 * float64(errs) / float64(n)
}

var crfsuiteAccuracyRE = regexp.MustCompile(`Item accuracy: (\d+) / (\d+)`)

// crfsuiteTokenError tags test with CRFsuite's model and returns its token
// error in percent.
func crfsuiteTokenError(b *testing.B, peer, model, test string) float64 {
	b.Helper()
	out, err := exec.Command(peer, "tag", "-qt", "-m", model, test).CombinedOutput()
	if err != nil {
		b.Fatalf("%s tag: %v\n%s", peer, err, out)
	}
	m := crfsuiteAccuracyRE.FindSubmatch(out)
	if m == nil {
		b.Fatalf("no item accuracy in CRFsuite's output:\n%s", out)
	}
	right, _ := strconv.Atoi(string(m[1]))
	all, _ := strconv.Atoi(string(m[2]))
	return 100 * float64(all-right) / float64(all)
}

// benchCRFsuiteFiles writes the training and test parts of Cora split 0
// with repro's citation attributes as CRFsuite attribute files and builds
// repro's instances from them, encoded with the training file's index of
// numAttrs attributes (one list of k labels over both files). It skips
// without REPRO_DATA.
func benchCRFsuiteFiles(b *testing.B) (train, test string, trainInsts, testInsts []chain.Instance, numAttrs, k int) {
	b.Helper()
	d, _, trainIdx := benchData(b, "cora")
	split, err := datasets.SplitAt(len(d.attrs), 0, 0.25, 2008) // benchData's split
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	var paths []string
	for _, part := range []struct {
		name string
		idx  []int
	}{{"train.txt", trainIdx}, {"test.txt", split.Test}} {
		corpus := &datasets.Corpus{Labels: d.labels}
		attrs := &datasets.Attributes{}
		for _, i := range part.idx {
			corpus.Sequences = append(corpus.Sequences, d.seqs[i])
			attrs.Names = append(attrs.Names, d.attrs[i])
		}
		var buf bytes.Buffer
		if err := datasets.WriteCRFsuite(&buf, corpus, attrs); err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(dir, part.name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, path)
	}
	back, a, err := datasets.LoadCRFsuiteFiles(paths)
	if err != nil {
		b.Fatal(err)
	}
	idx := features.BuildIndex(a[0].Names)
	encode := func(part int) []chain.Instance {
		out := make([]chain.Instance, len(back[part].Sequences))
		for i, s := range back[part].Sequences {
			out[i] = chain.Instance{Attrs: idx.Encode(a[part].Names[i]), Labels: s.Labels}
		}
		return out
	}
	return paths[0], paths[1], encode(0), encode(1), idx.Len(), len(back[0].Labels)
}

var (
	crfsuiteIterRE = regexp.MustCompile(`(?m)^\*\*\*\*\* Iteration #(\d+) \*\*\*\*\*$`)
	crfsuiteSecsRE = regexp.MustCompile(`(?m)^Seconds required for this iteration: ([0-9.]+)$`)
	crfsuiteLossRE = regexp.MustCompile(`(?m)^Loss: ([0-9.e+-]+)$`)
)

// crfsuiteLog reads CRFsuite's training log: the iterations, the sum of
// their seconds and the last loss.
func crfsuiteLog(b *testing.B, out []byte) (iters int, secs, loss float64) {
	b.Helper()
	its := crfsuiteIterRE.FindAllSubmatch(out, -1)
	losses := crfsuiteLossRE.FindAllSubmatch(out, -1)
	if len(its) == 0 || len(losses) == 0 {
		b.Fatalf("no iterations in CRFsuite's log:\n%s", out)
	}
	iters, _ = strconv.Atoi(string(its[len(its)-1][1]))
	for _, s := range crfsuiteSecsRE.FindAllSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(string(s[1]), 64)
		secs += v
	}
	loss, _ = strconv.ParseFloat(string(losses[len(losses)-1][1]), 64)
	return iters, secs, loss
}

// BenchmarkCRFObjective times one evaluation of the CRF objective and its
// gradient (every training instance's loss and gradient, as an L-BFGS
// step asks for them, through LogLossSum as CRF training calls it) on BenchmarkCRFsuite's training file, for the full
// and the seen model, at a fixed random weight vector: the part of an
// iteration that is not the L-BFGS direction. It reports process CPU per
// evaluation.
func BenchmarkCRFObjective(b *testing.B) {
	_, _, trainInsts, _, numAttrs, k := benchCRFsuiteFiles(b)
	for _, model := range []string{"full", "seen"} {
		b.Run(model, func(b *testing.B) {
			m, err := chain.New(trainInsts, numAttrs, k, true, decoders.Cost{})
			if err == nil && model == "seen" {
				err = m.Restrict(chain.SeenPairs(trainInsts, numAttrs, k))
			}
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(44, 1))
			w, grad := make([]float64, m.Dim()), make([]float64, m.Dim())
			for j := range w {
				w[j] = 0.1 * rng.NormFloat64()
			}
			var f float64
			t0 := cputime.ProcessSeconds()
			for b.Loop() {
				clear(grad)
				if f, err = m.LogLossSum(w, 1, 0, grad, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.ProcessSeconds()-t0)*1e3/float64(b.N), "cpu-ms/eval")
			b.Logf("%d weights, loss %.17g", m.Dim(), f)
		})
	}
}
