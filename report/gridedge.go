package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// GridEdgeMark follows a table cell in which some split chose a
// hyperparameter at the lowest or highest value of its grid.
const GridEdgeMark = "†"

// EdgeNote reports that, in some splits of one table cell, the
// hyperparameter selection chose Param at an end of its grid. A choice at
// the edge is a warning sign: the best value may lie outside the grid, so
// the cell may understate what the trainer can do.
type EdgeNote struct {
	Label   string // the cell's row, "dataset/task[/fraction]" as in the table
	Trainer string
	Param   string // e.g. "C"
	// Splits counts the runs of the cell whose selection tried two or more
	// values of Param; Low and High count those that chose the smallest
	// or the largest of them.
	Splits, Low, High int
	// LowValues and HighValues are the chosen edge values, ascending and
	// distinct (grids may differ between splits).
	LowValues, HighValues []float64
}

// String describes the note in one line, e.g.
// "cora/segmentation poslearn: C at the edge of its grid in 3/10 splits: low 3 (C = 0.001)".
func (e EdgeNote) String() string {
	var ends []string
	if e.Low > 0 {
		ends = append(ends, fmt.Sprintf("low %d (%s)", e.Low, e.values(e.LowValues)))
	}
	if e.High > 0 {
		ends = append(ends, fmt.Sprintf("high %d (%s)", e.High, e.values(e.HighValues)))
	}
	return fmt.Sprintf("%s %s: %s at the edge of its grid in %d/%d splits: %s",
		e.Label, e.Trainer, e.Param, e.Low+e.High, e.Splits, strings.Join(ends, ", "))
}

// values renders "C = 0.001" or "C = 0.001, 0.01".
func (e EdgeNote) values(vs []float64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return e.Param + " = " + strings.Join(s, ", ")
}

// GridEdges finds, for every (dataset, task, train fraction, trainer) and
// every hyperparameter that its runs selected from a grid of two or more
// values ([Run.Selection]), the splits whose choice ([Run.Params]) is the
// smallest or the largest value of that run's grid. Notes come in order
// of dataset, task, train fraction, trainer and parameter; cells without
// an edge choice have none. Labels show the train fraction when the runs
// have several, as [Summarize]'s rows do.
func GridEdges(runs []Run) []EdgeNote {
	type key struct {
		row     RowKey
		trainer string
		param   string
	}
	notes := map[key]*EdgeNote{}
	fractions := map[float64]bool{}
	for i := range runs {
		fractions[runs[i].TrainFraction] = true
	}
	t := &Table{ShowFraction: len(fractions) > 1} // for row labels
	for i := range runs {
		r := &runs[i]
		for param, grid := range runGrids(r) {
			chosen, ok := r.Params[param]
			if !ok {
				continue
			}
			rk := RowKey{Task: r.Task, Dataset: r.Dataset, TrainFraction: r.TrainFraction}
			k := key{rk, r.Trainer, param}
			n := notes[k]
			if n == nil {
				n = &EdgeNote{Label: t.label(rk), Trainer: r.Trainer, Param: param}
				notes[k] = n
			}
			n.Splits++
			switch chosen {
			case grid[0]:
				n.Low++
				n.LowValues = insertSorted(n.LowValues, chosen)
			case grid[len(grid)-1]:
				n.High++
				n.HighValues = insertSorted(n.HighValues, chosen)
			}
		}
	}
	keys := make([]key, 0, len(notes))
	for k, n := range notes {
		if n.Low+n.High > 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(
			strings.Compare(a.row.Dataset, b.row.Dataset),
			strings.Compare(a.row.Task, b.row.Task),
			cmp.Compare(a.row.TrainFraction, b.row.TrainFraction),
			strings.Compare(a.trainer, b.trainer),
			strings.Compare(a.param, b.param),
		)
	})
	out := make([]EdgeNote, len(keys))
	for i, k := range keys {
		out[i] = *notes[k]
	}
	return out
}

// runGrids maps each hyperparameter that r's selection tried with two or
// more values to those values, ascending.
func runGrids(r *Run) map[string][]float64 {
	grids := map[string][]float64{}
	for _, c := range r.Selection {
		for p, v := range c.Params {
			grids[p] = insertSorted(grids[p], v)
		}
	}
	for p, g := range grids {
		if len(g) < 2 {
			delete(grids, p)
		}
	}
	return grids
}

// insertSorted adds v to the ascending, distinct values xs.
func insertSorted(xs []float64, v float64) []float64 {
	i, found := slices.BinarySearch(xs, v)
	if found {
		return xs
	}
	return slices.Insert(xs, i, v)
}
