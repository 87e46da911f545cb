// Package ilp solves the argmax of structured models as integer linear
// programs, as Daumé III's chapter on structured prediction does in
// section 17.6 ("Argmax in General"): 0/1 indicator variables for the
// parts a structure is made of, linear constraints that make a set of
// parts one structure, and the parts' scores as the objective. Each
// program is relaxed to a linear program, solved by gonum's simplex
// (gonum.org/v1/gonum/optimize/convex/lp), and where the relaxation's
// optimum is fractional, branch and bound fixes a most fractional part to
// 1 (all parts that exclude it banned) and to 0, depth first.
//
// Two structures are built in, each with loss-augmented argmax for a loss
// that decomposes over its parts:
//
//   - linear chains ([DecodeChain], [LossAugmentedChain]) on the score
//     tables of package decoders, with the chapter's variables z_{l,k',k}
//     and constraints; the sum-to-one rows of every position but the first
//     are implied by the consistency rows and are dropped, since the
//     simplex needs a constraint matrix of full row rank (see chainLP);
//   - dependency trees ([TreeDecoder]) on the arc tables of package
//     decoders/mst: one head per word, connectivity by single-commodity
//     flow from the root, the root's flow row dropped as the sum of the
//     others (see treeLP).
//
// The chain program is a flow polytope, whose vertices are integral, so
// the simplex's first vertex is a labeling; the tree program's relaxation
// is often fractional. docs/ilp.md quotes how often, as measured by this
// package's tests, and what the decoders cost against Viterbi and
// Chu-Liu/Edmonds.
//
// These decoders are exact (to the simplex's round-off) but far slower
// than the dynamic programs: they are references, and a way to try a new
// structure by writing its constraints before writing its combinatorial
// decoder. Ties are broken by the simplex's pivots, not by a stated rule:
// compare objective values, not structures. Malformed tables panic, as in
// packages decoders and mst; a failure of the LP solver or a search beyond
// Options.MaxNodes is an error.
package ilp
