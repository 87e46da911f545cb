// Package cky finds the best parse of a tag sequence under a weighted
// context-free grammar by the CKY algorithm, and its loss-augmented
// variants for structural SVM training (Tsochantaridis et al. 2004,
// section 5.5; Johnson 1999's set-up: part-of-speech tags are the
// terminals, the grammar is every rule seen in training).
//
// # Grammar and trees
//
// A [Grammar] lists n-ary rules A → X1 … Xk over integer symbols, each
// with a score (one per rule, given per call, so the same compiled grammar
// serves every weight vector). Terminals are the tags; the start symbol
// (TOP, the treebank's outer bracket) appears on no right-hand side. A
// [Tree] is a list of nodes in preorder in the grammar's own n-ary form.
//
// # Binarisation
//
// [Compile] right-factors every rule of three or more children with
// intermediate symbols that remember the parent and the whole remaining
// suffix: A → X1 X2 X3 becomes A → X1 @A|X2X3 and @A|X2X3 → X2 X3. The
// top binary rule carries the original rule's score and the others score
// 0; since an intermediate symbol derives exactly its suffix, binarised
// derivations and n-ary trees over the grammar's rules correspond one to
// one, and trees are returned un-binarised, with the original brackets.
//
// # Unary chains
//
// A unary chain is a run of nodes with one child each, such as S → VP →
// VB (TOP's own rule excluded). Chains of any length would let cycles
// (A → B → A) pump the score, so a tree may hold chains of at most
// Grammar.MaxUnary rules, the longest seen in training being the natural
// bound. The chart closes each span over every chain of up to MaxUnary
// rules (enumerated once by Compile), which is exact for that tree set:
// the brute-force enumeration in package bruteforce uses the same bound.
//
// # Loss-augmented decoding
//
// [Decoder.KBest] keeps the k best derivations per chart item (distinct
// derivations are distinct trees), which gives the best tree other than
// the truth for zero-one loss. Labelled-bracket F1 does not decompose
// over rules, but it depends on a tree only through two counts: the
// brackets it predicts and how many of them match the gold ones. The
// count chart ([Decoder.Counts]) keeps, for every chart item, the best
// derivation for each (matched, predicted) pair, so the best tree of
// every pair is exact, and margin rescaling (argmax s + Δ) and slack
// rescaling (argmax Δ·(1 + s − s_gold)) are a scan over the pairs.
package cky
