package tasks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/taxonomy"
	"gopkg.in/yaml.v3"
)

// ClassTree is a dataset's taxonomy (package taxonomy) as the multiclass
// tasks take it: its leaves are the classes, its tree loss the dataset's
// cost, and the taxonomy task embeds the classes by it.
type ClassTree struct {
	t *taxonomy.Tree
}

// ParseClassTree reads a tree from a YAML block (a config's taxonomy:),
// errors naming file and line.
func ParseClassTree(n *yaml.Node, file string) (*ClassTree, error) {
	t, err := taxonomy.FromNode(n, file)
	if err != nil {
		return nil, err
	}
	return &ClassTree{t}, nil
}

// Relabel returns c with its classes in the order of the tree's leaves;
// each of c's classes must be a leaf and each leaf a class of c.
func (ct *ClassTree) Relabel(c *datasets.Corpus) (*datasets.Corpus, error) {
	classes := ct.t.Classes()
	for _, l := range c.Labels {
		if !slices.Contains(classes, l) {
			return nil, fmt.Errorf("class %q of the data is no leaf of the tree (leaves: %s)", l, strings.Join(classes, ", "))
		}
	}
	for _, l := range classes {
		if !slices.Contains(c.Labels, l) {
			return nil, fmt.Errorf("leaf %q of the tree is no class of the data (classes: %s)", l, strings.Join(c.Labels, ", "))
		}
	}
	out := *c
	out.Labels = classes
	out.Sequences = make([]structpred.Sequence, len(c.Sequences))
	for i, s := range c.Sequences {
		s.Labels = []int{slices.Index(classes, c.Labels[s.Labels[0]])}
		out.Sequences[i] = s
	}
	return &out, nil
}

// Cost is the tree loss as a cost matrix's rows, classes in leaf order.
func (ct *ClassTree) Cost() [][]float64 {
	c := ct.t.Cost()
	out := make([][]float64, c.K)
	for y := range c.K {
		out[y] = c.M[y*c.K : (y+1)*c.K]
	}
	return out
}

// Fingerprint describes the tree's nodes and embedding, for data hashes.
func (ct *ClassTree) Fingerprint() string {
	return fmt.Sprintf("T%q%v", ct.t.Nodes(), ct.t.Embedding().Rows)
}
