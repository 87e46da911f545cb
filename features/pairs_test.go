package features_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/maxmargin/repro/features"
)

func pair(a, b string) string { return a + features.PairSeparator + b }

// A corpus small enough to count by hand.
func TestPairsHandCounted(t *testing.T) {
	train := [][][]string{{{"a", "b", "c"}, {"a", "b"}}, {{"b", "c", "d", "b"}}}
	for _, tt := range []struct {
		minCount int
		want     []string // the kept pairs
	}{
		// a:2 b:3 c:2 d:1; ab:2 ac:1 bc:2 bd:1 cd:1 (the repeated b counts once)
		{2, []string{pair("a", "b"), pair("b", "c")}},
		{1, []string{pair("a", "b"), pair("a", "c"), pair("b", "c"), pair("b", "d"), pair("c", "d")}},
		{3, nil},
	} {
		p := features.BuildPairs(train, tt.minCount)
		var got []string
		for _, seq := range train {
			for _, tok := range seq {
				exp := p.Expand(tok)
				if !slices.Equal(exp[:len(tok)], tok) {
					t.Errorf("min %d: %v expands to %v, which does not start with it", tt.minCount, tok, exp)
				}
				got = append(got, exp[len(tok):]...)
			}
		}
		slices.Sort(got)
		got = slices.Compact(got)
		if !slices.Equal(got, tt.want) || p.Len() != len(tt.want) {
			t.Errorf("min %d: pairs %q (Len %d), want %q", tt.minCount, got, p.Len(), tt.want)
		}
	}
	p := features.BuildPairs(train, 2)
	if got, want := p.Expand([]string{"c", "x", "b", "a"}), []string{"c", "x", "b", "a", pair("a", "b"), pair("b", "c")}; !slices.Equal(got, want) {
		t.Errorf("test token: %q, want %q", got, want)
	}
}

// Pruning by the attributes' counts first keeps exactly the pairs that
// counting every pair of every token and pruning would.
func TestPairsMatchNaiveCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	var train [][][]string
	for range 30 {
		var seq [][]string
		for range 1 + rng.IntN(6) {
			var tok []string
			for range rng.IntN(6) {
				tok = append(tok, fmt.Sprint("f", rng.IntN(12)))
			}
			seq = append(seq, tok)
		}
		train = append(train, seq)
	}
	for minCount := range 5 {
		naive := map[string]int{}
		for _, seq := range train {
			for _, tok := range seq {
				u := slices.Clone(tok)
				slices.Sort(u)
				u = slices.Compact(u)
				for i := range u {
					for j := i + 1; j < len(u); j++ {
						naive[pair(u[i], u[j])]++
					}
				}
			}
		}
		want := map[string]bool{}
		for k, c := range naive {
			if c >= max(minCount, 1) {
				want[k] = true
			}
		}
		p := features.BuildPairs(train, minCount)
		got := map[string]bool{}
		for _, seq := range p.ExpandAll(train) {
			for _, tok := range seq {
				for _, a := range tok {
					if _, _, ok := features.SplitPair(a); ok {
						got[a] = true
					}
				}
			}
		}
		if len(got) != len(want) || p.Len() != len(want) {
			t.Errorf("min %d: %d pairs expanded (Len %d), naive count keeps %d", minCount, len(got), p.Len(), len(want))
		}
		for k := range want {
			if !got[k] {
				t.Errorf("min %d: pair %q missing", minCount, k)
			}
		}
	}
}

// spanishNER reads the first n sentences of CoNLL-2002's esp.train
// (Latin-1, "word POS NER") and returns their NER attributes, or skips.
func spanishNER(tb testing.TB, n int) [][][]string {
	dir := os.Getenv("REPRO_DATA")
	if dir == "" {
		tb.Skip("REPRO_DATA not set")
	}
	f, err := os.Open(filepath.Join(dir, "conll2002", "esp.train"))
	if err != nil {
		tb.Skip(err)
	}
	defer f.Close()
	var out [][][]string
	var words, pos []string
	flush := func() {
		if len(words) > 0 {
			out = append(out, features.NER(words, [][]string{pos}, []string{"pos"}, features.DefaultNEROptions()))
		}
		words, pos = nil, nil
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < n {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		cols := strings.Fields(line)
		r := make([]rune, len(cols[0])) // Latin-1: one byte, one rune
		for i := range len(cols[0]) {
			r[i] = rune(cols[0][i])
		}
		words, pos = append(words, string(r)), append(pos, cols[1])
	}
	if len(out) < n {
		flush()
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// The degree-2 map's size and cost on the first 300 sentences of the
// Spanish NER training file with the NER templates (issue 38 item 3):
// go test ./features -run PairsSpanish -v with REPRO_DATA set.
func TestPairsSpanishNER(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	attrs := spanishNER(t, 300)
	tokens, active := 0, 0
	for _, seq := range attrs {
		tokens += len(seq)
		for _, tok := range seq {
			active += len(tok)
		}
	}
	base := features.BuildIndexMinCount(attrs, 1).Len()
	t.Logf("%d sentences, %d tokens, %d attributes, %.1f active per token", len(attrs), tokens, base, float64(active)/float64(tokens))
	for _, minCount := range []int{1, 2, 3, 5} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		p := features.BuildPairs(attrs, minCount)
		built := time.Since(start)
		exp := p.ExpandAll(attrs)
		expanded := time.Since(start) - built
		runtime.GC()
		runtime.ReadMemStats(&after)
		act := 0
		for _, seq := range exp {
			for _, tok := range seq {
				act += len(tok)
			}
		}
		kept := features.BuildIndexMinCount(attrs, minCount).Len()
		t.Logf("min_count %d: %d attributes, %d pairs of %d paired attributes (names %.1f MiB, heap +%.1f MiB with the expansion), %.1f active per token; build %v, expand %v",
			minCount, kept, p.Len(), p.Attributes(), float64(p.NameBytes())/(1<<20),
			float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), float64(act)/float64(tokens), built.Round(time.Millisecond), expanded.Round(time.Millisecond))
		runtime.KeepAlive(exp)
		runtime.KeepAlive(p)
	}
}

func BenchmarkPairsSpanishNER(b *testing.B) {
	attrs := spanishNER(b, 300)
	for b.Loop() {
		features.BuildPairs(attrs, 2).ExpandAll(attrs)
	}
}

func ExampleBuildPairs() {
	train := [][][]string{{{"w=la", "pos=DA"}, {"w=casa", "pos=NC"}}, {{"w=la", "pos=DA"}}}
	p := features.BuildPairs(train, 2) // only w=la⇥pos=DA occurs twice
	for _, a := range p.Expand([]string{"w=la", "pos=DA", "suf=a"}) {
		fmt.Printf("%q\n", a)
	}
	// Output:
	// "w=la"
	// "pos=DA"
	// "suf=a"
	// "pos=DA\tw=la"
}
