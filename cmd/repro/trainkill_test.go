package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/maxmargin/repro/tagger"
)

// noisyText is a column file of n sentences over a large vocabulary whose
// labels mostly follow the word: a training that takes a while and a
// model file of about a MiB, so that signals land in every stage, the
// writing of the model included.
func noisyText(n int) string {
	r := rand.New(rand.NewPCG(42, 1))
	labels := []string{"O", "B-PER", "I-PER", "B-LOC", "I-LOC"}
	var b strings.Builder
	for range n {
		for range 12 {
			w := r.IntN(20000)
			l := labels[w%len(labels)]
			if r.IntN(10) == 0 {
				l = labels[r.IntN(len(labels))]
			}
			fmt.Fprintf(&b, "w%d X %s\n", w, l)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestTrainKillTrials interrupts `repro train` over an existing model file
// with SIGINT, SIGTERM and SIGKILL at moments spread over a training (start-up,
// reading, training, writing the model): afterwards the model file is the
// old one or, byte for byte, the one an uninterrupted training writes,
// never a torn one; after SIGINT and SIGTERM no temporary file is left.
// 15 trials, 3 with -short.
func TestTrainKillTrials(t *testing.T) {
	t.Parallel()
	trials := 15
	if testing.Short() {
		trials = 3
	}
	bin := builtRepro(t)
	dir := t.TempDir()
	data := write(t, dir, "train.txt", noisyText(800))
	args := func(out string, epochs int) []string {
		return []string{"train", "--trainer", "perceptron", "--param", fmt.Sprintf("epochs=%d", epochs), "-o", out, data}
	}
	oldPath, refPath := filepath.Join(dir, "old.repro"), filepath.Join(dir, "ref.repro")
	if out, err := exec.Command(bin, args(oldPath, 1)...).CombinedOutput(); err != nil {
		t.Fatalf("old model: %v\n%s", err, out)
	}
	begin := time.Now()
	if out, err := exec.Command(bin, args(refPath, 6)...).CombinedOutput(); err != nil {
		t.Fatalf("reference model: %v\n%s", err, out)
	}
	full := time.Since(begin)
	old, _ := os.ReadFile(oldPath)
	ref, _ := os.ReadFile(refPath)
	if bytes.Equal(old, ref) {
		t.Fatal("the old and the new model are the same file")
	}
	sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL}
	outcomes := map[string]int{}
	for i := range trials {
		sig := sigs[i%len(sigs)]
		tdir := filepath.Join(dir, fmt.Sprintf("trial%02d", i))
		if err := os.Mkdir(tdir, 0o755); err != nil {
			t.Fatal(err)
		}
		model := filepath.Join(tdir, "model.repro")
		if err := os.WriteFile(model, old, 0o644); err != nil {
			t.Fatal(err)
		}
		// Half the trials by delay from the start, half while the model
		// is being written.
		when := time.Duration(i) * full / time.Duration(trials)
		whileWriting := i%2 == 1
		if whileWriting {
			when = time.Duration(i%4) * time.Millisecond
		}
		status, log := trainAndSignal(t, bin, args(model, 6), tdir, sig, when, whileWriting)
		got, err := os.ReadFile(model)
		switch {
		case err != nil:
			t.Errorf("trial %d (%v): model file gone: %v", i, sig, err)
		case bytes.Equal(got, old):
			outcomes["old model"]++
		case bytes.Equal(got, ref):
			outcomes["new model"]++
			if _, err := tagger.LoadFile(model); err != nil {
				t.Errorf("trial %d: %v", i, err)
			}
		default:
			t.Errorf("trial %d (%v at %v): the model file is neither the old nor the new one (%d bytes; exit %v):\n%s", i, sig, when, len(got), status, log)
		}
		left, _ := filepath.Glob(filepath.Join(tdir, ".*"))
		if len(left) > 0 && sig != syscall.SIGKILL {
			t.Errorf("trial %d (%v): left %v", i, sig, left)
		}
		if len(left) > 0 {
			outcomes["temporary file left by SIGKILL"]++
		}
		if whileWriting {
			outcomes["signalled while writing"]++
		}
	}
	t.Logf("%d trials (uninterrupted training: %v): %v", trials, full.Round(time.Millisecond), outcomes)
}

// trainAndSignal runs repro with args and sends sig after the delay
// when, counted from the start or (whileWriting) from the moment the model's
// temporary file appears in dir; it returns how the process ended and its
// stderr.
func trainAndSignal(t *testing.T, bin string, args []string, dir string, sig syscall.Signal, when time.Duration, whileWriting bool) (string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var log bytes.Buffer
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := func(err error) string {
		if err == nil {
			return "exit 0"
		}
		return err.Error()
	}
	if whileWriting {
		for tmp := []string(nil); len(tmp) == 0; tmp, _ = filepath.Glob(filepath.Join(dir, ".*.tmp*")) {
			select {
			case err := <-done:
				return status(err), log.String() // finished before the signal
			case <-time.After(100 * time.Microsecond):
			}
		}
	}
	select {
	case err := <-done:
		return status(err), log.String()
	case <-time.After(when):
	}
	cmd.Process.Signal(sig)
	select {
	case err := <-done:
		return status(err), log.String()
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("no exit a minute after %v:\n%s", sig, log.String())
	}
	return "", ""
}
