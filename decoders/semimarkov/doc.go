// Package semimarkov implements exact inference for first-order semi-Markov
// segmentation models (Sarawagi & Cohen, 2004) working on score tables only,
// with the inference problems that structured max-margin training needs
// (Sarawagi & Gupta, ICML 2008, sec. 4.3.2). It is the segmentation
// counterpart of package decoders and follows its conventions.
//
// # Model
//
// A segmentation of N tokens is a sequence of segments (Start, End, Label)
// (structpred.Segment, End exclusive) that covers 0..N-1 without gaps or
// overlaps, each of length 1..L, labelled 0..K-1. Its score is
//
//	s(y) = Σ_j Unary[start_j, len_j, y_j] + Trans[y_{j-1}, y_j]
//
// where the previous label of the first segment is START, index K (see
// [Scores]). A score that depends jointly on a segment and its previous
// label, beyond the additive Trans term, is not supported: the additive form
// is what lets every pass run in O(N·(L·K + K²)) instead of O(N·L·K²).
//
// # Loss
//
// [Loss] is the segment loss of sec. 4.3.2: a predicted segment whose span is
// a span of the truth costs Misclass[true label][predicted label]; any other
// predicted segment (t, u, y) costs Precision[y] plus Recall[y'] for every
// true segment (t', u', y') with t ≤ t' ≤ u, u the last token of the
// predicted segment (the paper's condition, taken literally: the true
// segments that START inside it). Every true segment's first token lies in
// exactly one predicted segment, so the total is
//
//	Σ_{predicted spans not in the truth} p_y + Σ_{true spans not predicted} r_y' + Σ_{shared spans} M[y'][y].
//
// # Algorithms
//
//   - [Viterbi]: the MAP segmentation.
//   - [LossAugmented]: margin scaling, argmax s(y) + scale·L(y).
//   - [BestExcluding]: the best segmentation other than the truth
//     (ApproxSlack's inner step).
//   - [LossCount]: exact slack scaling, the best segmentation for every
//     integer loss value.
//   - [ComputeSpanMarginals]: forward γ and backward β passes giving, for
//     every segment (t, u, y) of length 1..L, the best segmentation containing
//     it, and [SpanMarginals.Violators], PosLearn's most violating
//     segmentation per span.
//   - [KBest], [LossAugmentedKBest]: list Viterbi over segment boundaries,
//     the k best segmentations (k-best MIRA).
//   - [ForwardBackward], [LossAugmentedForwardBackward] (and their To
//     variants, which reuse the result): the sum-product passes, scaled in
//     exp space with a log-space fallback for score ranges beyond float64's,
//     giving log Z, the probability of every segment and the expected count
//     of every label transition ([Posteriors]), which is what CRF and
//     entropy-margin training need for the gradient.
//
// Package semimarkov/bruteforce enumerates all segmentations and is the test
// oracle for all of them.
//
// # Conventions
//
// Scores are expected to be finite. N may be 0 (the single empty
// segmentation, score 0); K and L must be at least 1. A truth may contain
// segments longer than L (real data does): the loss is defined for it, and
// decoders simply cannot return it. Malformed inputs (table sizes that do not
// match N, K, L; a truth that is not a segmentation of N tokens; labels out of
// range) are programmer errors and cause a panic; nothing else panics.
//
// Every result is deterministic. Segmentations are ordered by [Compare]:
// segment by segment from the left, each segment by label first and then by
// end (shorter first). Ties between equally scored segmentations go to the
// smallest in that order in every function except
// [SpanMarginals.Segmentation], whose rule is given there (a k-best list
// orders equally scored segmentations the same way). For L = 1 the
// order is the lexicographic order on labelings of package decoders. "Equal"
// means equal as computed in floating point, so the rule is exact when scores
// are small integers and otherwise only matters for genuine ties.
//
// A [Workspace] holds scratch buffers so that repeated calls do not allocate;
// use one per goroutine. Every function accepts a nil *Workspace.
package semimarkov
