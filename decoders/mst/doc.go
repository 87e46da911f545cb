// Package mst implements exact first-order dependency parsing on arc score
// tables: it knows nothing about features, trainers or treebanks. A sentence
// of N words has nodes 1..N plus the dummy root 0, and a [Graph] holds the
// score of every arc head → dependent. A parse is a head vector heads of
// length N+1 with heads[0] = -1 and heads[d] ∈ [0, N] the head of word d;
// it is a tree when every word reaches the root through its heads (see
// [CheckTree]). Its score is the sum of its arc scores,
//
//	s(heads) = Σ_{d=1..N} Score[heads[d]*(N+1)+d],
//
// so features and the Hamming loss over heads (the number of words with a
// wrong head, the attachment error) decompose over the same parts (Sarawagi &
// Gupta, ICML 2008, sec. 4.3.3 and 5.2).
//
// A [Decoder] chooses the algorithm and its constraints:
//
//   - Chu-Liu/Edmonds (the default): the maximum spanning arborescence rooted
//     at 0 over all trees, projective or not, as in MSTParser's
//     non-projective mode (McDonald et al., 2005). The simple recursive
//     contraction, O(N³) in the worst case and O(N²) when the best heads
//     form few cycles.
//   - Eisner (Projective: true): the best projective tree, O(N³).
//   - SingleRoot: exactly one word attaches to the root. Off by default,
//     because the CoNLL-X treebanks allow several root children and the
//     shared task scored them so.
//
// and offers the inference problems structured max-margin training needs:
// [Decoder.Decode] (MAP), [Decoder.LossAugmented] (margin scaling with the
// Hamming loss over heads), [Decoder.BestWrongAt] (MAP with one arc
// disabled) and [Decoder.PositionViolators] (PosLearn's per-word violators,
// from MAP and up to N further MAP calls, as the paper does).
//
// # Conventions
//
// Scores must be finite; N may be 0 (the single empty tree, score 0). Score
// entries for arcs into the root (d = 0) and self-loops (h = d) are ignored.
// Malformed inputs (a table whose length is not (N+1)², a truth vector of the
// wrong length or with heads out of range) are programmer errors and panic.
//
// Every result is a deterministic function of its inputs; the tie-breaking
// rules between equally scored trees are given with each algorithm ([Decoder]
// has them). They are procedural, not "the lexicographically smallest tree",
// so tests against brute force compare scores, not trees, when there are ties.
//
// A [Workspace] holds scratch buffers so that repeated calls do not allocate
// beyond their results; use one per goroutine. Every function accepts a nil
// *Workspace.
//
// Package mst/bruteforce enumerates every tree of a small sentence and is the
// test oracle of this package.
package mst
