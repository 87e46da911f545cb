// Command peerbench trains one of repro's cutting-plane trainers on exactly
// the references of one split of a peers split file (shared/peers/
// cora_splits.json, the split dlib's driver is run on) and prints one JSON
// line: process CPU seconds of the training, passes, working-set size, the
// true primal and its working-set counterpart, and test token error and span
// F1. It exists to measure speed as a ratio to dlib's structural SVM on the
// same references (docs/performance.md, "side by side with dlib");
// features are repro's own.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	split := flag.Int("split", 1, "seed of the split in cora_splits.json")
	trainer := flag.String("trainer", "margin", "")
	c := flag.Float64("C", 0.1, "")
	eps := flag.Float64("eps", 0.01, "")
	solver := flag.String("solver", "", "")
	n := flag.Int("n", 0, "use only the first n training references (0: all)")
	splitsFile := flag.String("splits", "../shared/peers/cora_splits.json", "split file (JSON: splits[].seed, splits[].train)")
	coraFile := flag.String("cora", "../shared/datasets/cora/tagged_references.txt", "Cora tagged references")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the training to this file")
	flag.Parse()
	var sp struct {
		Splits []struct {
			Seed  int   `json:"seed"`
			Train []int `json:"train"`
		} `json:"splits"`
	}
	b, err := os.ReadFile(*splitsFile)
	if err != nil {
		log.Fatal(err)
	}
	if err := json.Unmarshal(b, &sp); err != nil {
		log.Fatalf("%s: %v", *splitsFile, err)
	}
	var train []int
	for _, s := range sp.Splits {
		if s.Seed == *split {
			train = s.Train
		}
	}
	if train == nil {
		log.Fatalf("%s: no split with seed %d", *splitsFile, *split)
	}
	if *n > 0 && *n < len(train) {
		train = train[:*n]
	}
	corpus, err := datasets.LoadCora(*coraFile)
	if err != nil {
		log.Fatal(err)
	}
	in := map[int]bool{}
	for _, i := range train {
		in[i] = true
	}
	var trAttrs, teAttrs [][][]string
	var trLab, teLab [][]int
	for i, s := range corpus.Sequences {
		a := features.Extract(s.Tokens, features.DefaultOptions())
		if in[i] {
			trAttrs, trLab = append(trAttrs, a), append(trLab, s.Labels)
		} else {
			teAttrs, teLab = append(teAttrs, a), append(teLab, s.Labels)
		}
	}
	idx := features.BuildIndex(trAttrs)
	var data []chain.Instance
	for j := range trAttrs {
		data = append(data, chain.Instance{Attrs: idx.Encode(trAttrs[j]), Labels: trLab[j]})
	}
	m, err := chain.New(data, idx.Len(), len(corpus.Labels), true, decoders.Cost{})
	if err != nil {
		log.Fatal(err)
	}
	params := trainers.Values{"C": *c, "epsilon": *eps, "solver": *solver}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	c0, t0 := cpu(), time.Now()
	res, err := trainers.Train[[]int](context.Background(), *trainer, m, params)
	if err != nil {
		log.Fatal(err)
	}
	if *cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	cs, ws := (cpu() - c0).Seconds(), time.Since(t0).Seconds()
	var cnt metrics.Counts
	for j := range teAttrs {
		x := chain.Instance{Attrs: idx.Encode(teAttrs[j]), Labels: teLab[j]}
		if err := cnt.AddLabels(x.Labels, m.Predict(x, res.W)); err != nil {
			log.Fatal(err)
		}
	}
	out, err := json.Marshal(map[string]any{
		"trainer": *trainer, "solver": *solver, "n": len(train), "cpu_s": cs, "wall_s": ws,
		"iters": res.Iterations, "cons": res.Constraints, "oracle_calls": res.OracleCalls,
		"primal": res.Primal, "working_primal": res.WorkingPrimal, "dual": res.Dual,
		"token_err": cnt.TokenError(), "span_f1": cnt.SpanF1(),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
}
