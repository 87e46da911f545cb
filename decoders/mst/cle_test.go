package mst

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The two shortcuts of Chu-Liu/Edmonds give the tree, and the failures,
// that searching every node's best arc afresh in every round gives: the
// update after a contraction (rechoose), and the first round of a decode
// with one arc disabled taken from the decode without it (cleDecode's
// without), tried for every arc. The graphs have many exact ties (small
// integer scores), unusable arcs and both root policies, where the
// tie-breaking of the shortcuts could part from the full search.
func TestCLEShortcutsMatchFullSearch(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	fast, ref := &Workspace{}, &Workspace{}
	contractions := 0
	for trial := range 1500 {
		m := 2 + rng.IntN(12)
		table := make([]float64, m*m)
		for i := range table {
			switch r := rng.IntN(12); {
			case r == 0:
				table[i] = absent
			case trial%2 == 0:
				table[i] = float64(r % 3)
			default:
				table[i] = float64(rng.IntN(7) - 3)
			}
		}
		singleRoot := trial%3 == 0
		decode := func(without int) bool {
			hf, hr := make([]int, m), make([]int, m)
			okF := cleDecode(table, m, singleRoot, hf, fast, without, false)
			okR := cleDecode(table, m, singleRoot, hr, ref, without, true)
			if okF != okR || (okF && !slices.Equal(hf, hr)) {
				t.Fatalf("trial %d (m = %d, single root %v, arc %d disabled): shortcuts %v %v, full search %v %v\ntable %v",
					trial, m, singleRoot, without, okF, hf, okR, hr, table)
			}
			contractions += len(fast.cycOff)
			return okF
		}
		if !decode(-1) {
			continue // no tree: the decodes with an arc disabled need one
		}
		for arc := range table {
			if arc%m == 0 || table[arc] == absent {
				continue
			}
			keep := table[arc]
			table[arc] = absent
			decode(arc)
			table[arc] = keep
		}
	}
	if contractions < 10000 {
		t.Fatalf("only %d contractions in all: the graphs do not exercise rechoose", contractions)
	}
}
