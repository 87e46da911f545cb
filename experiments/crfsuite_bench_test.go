package experiments

import (
	"bytes"
	"context"
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

// BenchmarkCRFsuite trains the full attribute × label CRF of Cora split 0
// (25% train, repro's citation attributes written as a CRFsuite attribute
// file and read back, so both sides see the same file) at C = 1 (CRFsuite's
// c2 = 1/(2C)), both with CRFsuite's stopping rule (stop: crfsuite, its
// defaults) and 6 correction pairs, and reports process CPU per L-BFGS
// iteration (line search) and per training. With CRFsuite installed it
// trains CRFsuite on the same file in the same loop (interleaved pairs;
// feature.possible_states and possible_transitions, so that the models are
// the same) and reports the ratios; CRFsuite's iteration time is the sum of
// its log's per-iteration seconds (clock(), process CPU), its training time
// the child's CPU. Without CRFsuite, compare repro's numbers with another
// commit's (scripts/crfbench.sh does both).
func BenchmarkCRFsuite(b *testing.B) {
	path, m := benchCRFsuiteFile(b)
	peer := os.Getenv(EnvCRFsuite)
	if peer == "" {
		peer, _ = exec.LookPath("crfsuite")
	}
	const c = 1.0
	var repro, crfsuite struct {
		iters         int
		train, perIts float64 // CPU seconds: trainings, iterations
		objective     float64
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
		if peer == "" {
			continue
		}
		cmd := exec.Command(peer, "learn", "-a", "lbfgs", "-p", "c2="+strconv.FormatFloat(1/(2*c), 'g', -1, 64),
			"-p", "feature.possible_states=1", "-p", "feature.possible_transitions=1", "-p", "num_memories=6",
			"-m", filepath.Join(b.TempDir(), "model"), path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%s: %v\n%s", peer, err, out)
		}
		iters, secs, loss := crfsuiteLog(b, out)
		crfsuite.iters, crfsuite.objective = iters, loss
		crfsuite.train += (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		crfsuite.perIts += secs / float64(iters)
	}
	n := float64(b.N)
	b.ReportMetric(repro.perIts/n*1e3, "cpu-ms/iter")
	b.ReportMetric(repro.train/n, "cpu-s/train")
	b.ReportMetric(float64(repro.iters), "iters")
	b.Logf("repro: %d weights, %d iterations, objective/C %.10g", m.Dim(), repro.iters, repro.objective)
	if peer == "" {
		b.Logf("CRFsuite not found ($%s or crfsuite on PATH): compare with another commit", EnvCRFsuite)
		return
	}
	b.ReportMetric(crfsuite.perIts/n*1e3, "crfsuite-cpu-ms/iter")
	b.ReportMetric(crfsuite.train/n, "crfsuite-cpu-s/train")
	b.ReportMetric(float64(crfsuite.iters), "crfsuite-iters")
	b.ReportMetric(repro.perIts/crfsuite.perIts, "×crfsuite/iter")
	b.ReportMetric(repro.train/crfsuite.train, "×crfsuite/train")
	b.Logf("CRFsuite: %d iterations, objective %.10g", crfsuite.iters, crfsuite.objective)
}

// benchCRFsuiteFile writes the training part of Cora split 0 with repro's
// citation attributes as a CRFsuite attribute file and builds repro's chain
// model from that file. It skips without REPRO_DATA.
func benchCRFsuiteFile(b *testing.B) (string, *chain.Model) {
	b.Helper()
	d, _, train := benchData(b, "cora")
	corpus := &datasets.Corpus{Labels: d.labels}
	attrs := &datasets.Attributes{}
	for _, i := range train {
		corpus.Sequences = append(corpus.Sequences, d.seqs[i])
		attrs.Names = append(attrs.Names, d.attrs[i])
	}
	var buf bytes.Buffer
	if err := datasets.WriteCRFsuite(&buf, corpus, attrs); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "train.txt")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	back, a, err := datasets.LoadCRFsuite(path)
	if err != nil {
		b.Fatal(err)
	}
	idx := features.BuildIndex(a.Names)
	insts := make([]chain.Instance, len(back.Sequences))
	for i, s := range back.Sequences {
		insts[i] = chain.Instance{Attrs: idx.Encode(a.Names[i]), Labels: s.Labels}
	}
	m, err := chain.New(insts, idx.Len(), len(back.Labels), true, decoders.Cost{})
	if err != nil {
		b.Fatal(err)
	}
	return path, m
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
