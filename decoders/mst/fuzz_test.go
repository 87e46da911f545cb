package mst_test

import (
	"testing"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/decoders/mst/bruteforce"
)

// FuzzDecode checks every decoder against brute force on sentences of up to
// 5 words whose small integer scores (many ties) come from the fuzzer.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{3, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0})
	f.Add([]byte{5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4})
	f.Add([]byte{2, 0, 4, 4, 4, 0, 0, 4, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		n := int(b[0]) % 6
		g := mst.NewGraph(n)
		for i := range g.Score {
			if 1+i < len(b) {
				g.Score[i] = float64(int(b[1+i]%5) - 2)
			}
		}
		for _, dec := range decoders {
			got := dec.Decode(g, nil)
			if err := checkSearched(dec, got.Heads); err != nil {
				t.Fatalf("%v: %v", dec, err)
			}
			want, _ := bruteforce.Best(n, g.TreeScore, keeps(dec))
			if got.Score != want.Score {
				t.Errorf("%v: %v scores %v, brute force %v scores %v", dec, got.Heads, got.Score, want.Heads, want.Score)
			}
		}
	})
}
