// Package taxonomy is a class tree for hierarchical classification
// (Tsochantaridis et al. 2004, section 5.2): read from a small YAML list,
// it yields the class embedding Λ of models/multiclass (a 1 for every node
// on the path from the root to a class, so classes share the weights of
// their ancestors) and the tree loss Δ(y, y′), the height of the first
// common ancestor of y and y′.
//
// A tree is a YAML list whose items are leaves (a class name) or inner
// nodes (a one-key mapping from the node's name to the list of its
// children):
//
//	# two groups; "press" and "fiction-genres" are inner nodes
//	- informative:
//	    - press: [news, editorial, reviews]
//	    - religion
//	- imaginative:
//	    - fiction-genres: [fiction, mystery]
//	    - humor
//
// The root is implicit. Node names are unique across the tree (a leaf and
// an inner node may not share one either), so a class is named by its
// leaf.
//
// Heights in an unbalanced tree: the tree is padded to uniform depth H
// (the deepest leaf's) with single-child nodes inserted just above the
// shallower leaves, so every leaf sits at depth H and the height of a
// node at depth d is H − d. The loss Δ(y, y′) = H − depth(lca(y, y′)) for
// y ≠ y′ (0 for y = y′) then means the same at every depth: it counts the
// levels, from the leaves up, at which y and y′ differ. Padding changes no
// inner node's depth, and it adds nothing to Λ (a padding node lies on one
// class's path only, like the leaf itself, so its weights would only
// duplicate the leaf's). The root is left out of Λ too: it lies on every
// path, so its weights cancel from every score difference.
package taxonomy

import (
	"fmt"
	"strings"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/internal/strictyaml"
	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/structpred"
	"gopkg.in/yaml.v3"
)

// Tree is a parsed taxonomy. Its nodes other than the root are numbered
// in document order (pre-order), which is their output feature in Λ; its
// classes are the leaves in document order.
type Tree struct {
	names  []string // node names
	parent []int    // −1 for the root's children
	depth  []int    // 1 for the root's children
	leaves []int    // the classes' nodes
	height int      // H, the deepest leaf's depth
}

// Parse reads a tree from YAML data; errors name file and line.
func Parse(data []byte, file string) (*Tree, error) {
	root, err := strictyaml.Parse(data, strictyaml.Doc{File: file, Noun: "taxonomy"})
	if err != nil {
		return nil, err
	}
	return FromNode(root.Content[0], file)
}

// FromNode reads a tree from a YAML node (e.g. a block of a config file),
// naming file in its errors.
func FromNode(n *yaml.Node, file string) (*Tree, error) {
	t := &Tree{}
	seen := map[string]int{}
	if err := t.addChildren(n, -1, 1, seen, file); err != nil {
		return nil, err
	}
	if len(t.leaves) < 2 {
		return nil, &strictyaml.Error{File: file, Line: n.Line, Msg: fmt.Sprintf("a taxonomy needs at least 2 classes, found %d", len(t.leaves))}
	}
	return t, nil
}

// addChildren adds the items of the list n as children of node parent.
func (t *Tree) addChildren(n *yaml.Node, parent, depth int, seen map[string]int, file string) error {
	fail := func(line int, format string, args ...any) error {
		return &strictyaml.Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if n.Kind != yaml.SequenceNode {
		return fail(n.Line, "expected a list of children, found %s", strictyaml.KindName(n))
	}
	if len(n.Content) == 0 {
		return fail(n.Line, "a node with no children")
	}
	for _, item := range n.Content {
		var name string
		var kids *yaml.Node
		switch {
		case item.Kind == yaml.ScalarNode && item.Tag != "!!null":
			name = item.Value
		case item.Kind == yaml.MappingNode && len(item.Content) == 2:
			name, kids = item.Content[0].Value, item.Content[1]
		case item.Kind == yaml.MappingNode:
			return fail(item.Line, "an inner node is a mapping with one key (its name), found %d keys", len(item.Content)/2)
		default:
			return fail(item.Line, "expected a class name or a mapping from a node's name to its children, found %s", strictyaml.KindName(item))
		}
		if strings.TrimSpace(name) == "" {
			return fail(item.Line, "an empty node name")
		}
		if line, dup := seen[name]; dup {
			return fail(item.Line, "node %q already defined at line %d", name, line)
		}
		seen[name] = item.Line
		id := len(t.names)
		t.names, t.parent, t.depth = append(t.names, name), append(t.parent, parent), append(t.depth, depth)
		if kids == nil {
			t.leaves = append(t.leaves, id)
			t.height = max(t.height, depth)
			continue
		}
		if err := t.addChildren(kids, id, depth+1, seen, file); err != nil {
			return err
		}
	}
	return nil
}

// Classes returns the class names, in class order.
func (t *Tree) Classes() []string {
	out := make([]string, len(t.leaves))
	for y, n := range t.leaves {
		out[y] = t.names[n]
	}
	return out
}

// Class returns the class of a leaf's name.
func (t *Tree) Class(name string) (int, bool) {
	for y, n := range t.leaves {
		if t.names[n] == name {
			return y, true
		}
	}
	return 0, false
}

// Nodes returns the names of the nodes below the root: output feature m
// of Λ is node m.
func (t *Tree) Nodes() []string { return append([]string(nil), t.names...) }

// Height returns H, the depth of the deepest leaf (the root's children are
// at depth 1), to which the tree is padded.
func (t *Tree) Height() int { return t.height }

// path returns the nodes from y's leaf up to the root's child.
func (t *Tree) path(y int) []int {
	var p []int
	for n := t.leaves[y]; n >= 0; n = t.parent[n] {
		p = append(p, n)
	}
	return p
}

// Embedding returns Λ: row y has a 1 at every node on the path from the
// root (excluded) to class y's leaf (included).
func (t *Tree) Embedding() multiclass.Embedding {
	e := multiclass.Embedding{M: len(t.names), Rows: make([]structpred.SparseVec, len(t.leaves))}
	for y := range t.leaves {
		p := t.path(y)
		r := structpred.SparseVec{Idx: make([]int32, len(p)), Val: make([]float64, len(p))}
		for i, n := range p { // pre-order numbers increase down a path
			r.Idx[len(p)-1-i], r.Val[len(p)-1-i] = int32(n), 1
		}
		e.Rows[y] = r
	}
	return e
}

// Loss returns the tree loss Δ(y, y′) = H − depth(lca(y, y′)) in the
// padded tree (the root has depth 0), 0 for y = y′.
func (t *Tree) Loss(y, y2 int) float64 {
	if y == y2 {
		return 0
	}
	onPath := map[int]bool{}
	for _, n := range t.path(y) {
		onPath[n] = true
	}
	lcaDepth := 0
	for _, n := range t.path(y2) {
		if onPath[n] {
			lcaDepth = t.depth[n]
			break
		}
	}
	return float64(t.height - lcaDepth)
}

// Cost returns the tree loss as a cost matrix over the classes.
func (t *Tree) Cost() decoders.Cost {
	k := len(t.leaves)
	c := decoders.Cost{K: k, M: make([]float64, k*k)}
	for y := range k {
		for y2 := range k {
			c.M[y*k+y2] = t.Loss(y, y2)
		}
	}
	return c
}
