package ilp_test

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/ilp"
)

var update = flag.Bool("update", false, "rewrite the measured table in docs/ilp.md")

const (
	docPath    = "../../docs/ilp.md"
	tableBegin = "<!-- integrality table: written by go test ./decoders/ilp/ -run Integrality -update -->\n"
	tableEnd   = "<!-- end of integrality table -->\n"
)

// TestIntegralityTable measures how often the root relaxation is
// fractional, for chains and for trees of short sentences, on fixed random
// instances (float scores, so no ties; MAP and loss-augmented MAP with
// Hamming loss at scale 1), and checks that docs/ilp.md quotes exactly
// these numbers. The counts are deterministic: same instances, same
// simplex pivots.
func TestIntegralityTable(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a few hundred tree programs")
	}
	const reps = 20
	var buf bytes.Buffer
	buf.WriteString("| structure | size | programs | fractional root relaxations | relaxations solved (mean, max) |\n|---|---|---|---|---|\n")
	row := func(what, size string, sts []ilp.Stats) {
		frac, lps, most := 0, 0, 0
		for _, st := range sts {
			if st.RootFractional {
				frac++
			}
			lps += st.LPs
			most = max(most, st.LPs)
		}
		fmt.Fprintf(&buf, "| %s | %s | %d | %d | %.1f, %d |\n", what, size, len(sts), frac, float64(lps)/float64(len(sts)), most)
	}
	for _, sz := range []struct{ n, k int }{{5, 3}, {10, 4}} {
		rng := rand.New(rand.NewPCG(uint64(sz.n), 17))
		var sts []ilp.Stats
		for range reps {
			c := randChain(rng, floatScores, sz.n, sz.k, true)
			_, st, err := ilp.DecodeChain(c, ilp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			truth := randLabels(rng, sz.n, sz.k)
			_, st2, err := ilp.LossAugmentedChain(c, truth, decoders.Hamming(sz.k), 1, ilp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sts = append(sts, st, st2)
		}
		row("chain", fmt.Sprintf("N = %d, K = %d", sz.n, sz.k), sts)
	}
	for _, dec := range []ilp.TreeDecoder{{}, {SingleRoot: true}} {
		what := "tree"
		if dec.SingleRoot {
			what = "tree, single root"
		}
		for n := 3; n <= 6; n++ {
			rng := rand.New(rand.NewPCG(uint64(n), 17))
			var sts []ilp.Stats
			for range reps {
				g := randGraph(rng, floatScores, n)
				_, st, err := dec.Decode(g)
				if err != nil {
					t.Fatal(err)
				}
				_, _, st2, err := dec.LossAugmented(g, randTree(rng, n), 1)
				if err != nil {
					t.Fatal(err)
				}
				sts = append(sts, st, st2)
			}
			row(what, fmt.Sprintf("N = %d", n), sts)
		}
	}
	t.Logf("\n%s", buf.String())
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(doc, []byte(tableBegin))
	j := bytes.Index(doc, []byte(tableEnd))
	if i < 0 || j < i {
		t.Fatalf("%s has no integrality table between %q and %q", docPath, strings.TrimSpace(tableBegin), strings.TrimSpace(tableEnd))
	}
	quoted := doc[i+len(tableBegin) : j]
	if bytes.Equal(quoted, buf.Bytes()) {
		return
	}
	if !*update {
		t.Fatalf("%s quotes\n%s\nmeasured\n%s(rerun with -update to rewrite it)", docPath, quoted, buf.Bytes())
	}
	out := append(append(append([]byte(nil), doc[:i+len(tableBegin)]...), buf.Bytes()...), doc[j:]...)
	if err := os.WriteFile(docPath, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
