package tasks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/internal/modelfile"
	"github.com/maxmargin/repro/trainers"
)

// toyTreebank writes n sentences of a toy language (determiner → noun →
// verb → root; coarse and fine tags differ) in CoNLL-U.
func toyTreebank(t testing.TB, n int) string {
	t.Helper()
	nouns := []string{"cat", "dog", "bird"}
	var b strings.Builder
	for s := range n {
		fmt.Fprintf(&b, "1\tthe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n")
		fmt.Fprintf(&b, "2\t%s\t%[1]s\tNOUN\tNN|SIN\t_\t3\tnsubj\t_\t_\n", nouns[s%3])
		fmt.Fprintf(&b, "3\truns\truns\tVERB\tVB\t_\t0\troot\t_\t_\n\n")
	}
	path := filepath.Join(t.TempDir(), "toy.conllu")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestParserFileRoundTrip: a saved parser loads (through the task
// dispatch) with its weights bit for bit and its settings, and parses as
// the trained one; damaged files and a file of another task are refused.
func TestParserFileRoundTrip(t *testing.T) {
	path := toyTreebank(t, 12)
	m, _, err := Parsing{}.TrainFile(context.Background(), path, Settings{Trainer: "perceptron", Params: trainers.Values{"epochs": 3}})
	if err != nil {
		t.Fatal(err)
	}
	p := m.(*Parser)
	if !p.CoarseTags || p.NumFeatures() == 0 || p.DataHash == "" {
		t.Fatalf("parser: coarse %v, %d features, data hash %q", p.CoarseTags, p.NumFeatures(), p.DataHash)
	}
	file := filepath.Join(t.TempDir(), "p.repro")
	if err := p.SaveFile(file); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	q := loaded.(*Parser)
	if !slices.Equal(q.Weights, p.Weights) || q.Trainer != p.Trainer || q.CoarseTags != p.CoarseTags || q.DataHash != p.DataHash || !slices.Equal(q.index.Hashes(), p.index.Hashes()) {
		t.Errorf("loaded parser differs")
	}
	e1, _, err := p.Evaluate(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	e2, _, err := q.Evaluate(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if e1.(*ParsingEvaluation).Counts != e2.(*ParsingEvaluation).Counts || e1.(*ParsingEvaluation).Counts.TokenErrors != 0 {
		t.Errorf("evaluations %+v and %+v, want equal and no error (the toy grammar is learnable)", e1, e2)
	}

	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// A parsing payload framed with a tagger layout's version.
	var v2 bytes.Buffer
	if err := modelfile.Write(&v2, 2, func(w io.Writer) error {
		_, r, err := modelfile.Open(good)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, r)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"truncated", good[:len(good)-1], "checksum"},
		{"flipped", append(good[:len(good)/2:len(good)/2], append([]byte{good[len(good)/2] ^ 1}, good[len(good)/2+1:]...)...), "checksum"},
		{"not a model", []byte("1\tthe\n"), "does not start with"},
		{"another layout's version", v2.Bytes(), "not a parsing model's"},
	} {
		if _, err := Decode(tc.file); !errors.Is(err, modelfile.ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrFormat containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := DecodeParser(good[:0]); err == nil {
		t.Error("empty file decoded")
	}
}

// TestParsingRefusesSlack: trees have no loss-count decoding.
func TestParsingRefusesSlack(t *testing.T) {
	if err := (Parsing{}).Supports("slack", trainers.Values{"C": 1.0}); err == nil {
		t.Error("slack scaling accepted for parsing")
	}
	if err := (Parsing{}).Supports("margin", trainers.Values{"C": 1.0}); err != nil {
		t.Error(err)
	}
}

// TestLookup: every registered task is found by name, and an unknown
// name lists the known ones.
func TestLookup(t *testing.T) {
	for _, name := range Names() {
		if task, err := Lookup(name); err != nil || task.Name() != name {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Lookup("pos"); err == nil || !strings.Contains(err.Error(), "known: "+strings.Join(Names(), ", ")) {
		t.Errorf("unknown task: %v", err)
	}
}
