// Package decoders implements exact inference for a first-order linear chain
// working on score tables only: it knows nothing about features, trainers or
// data sets. A chain of length N over K labels scores a labeling y as
//
//	s(y) = Σ_t Unary[t*K+y_t] + Σ_{t≥1} Trans[y_{t-1}*K+y_t].
//
// The algorithms are the inference problems that structured max-margin
// training needs (Sarawagi & Gupta, ICML 2008):
//
//   - [Viterbi]: the MAP labeling.
//   - [LossAugmented]: margin-scaling inference, argmax s(y) + λ·L(y) for a
//     per-position [Cost].
//   - [KBest], [LossAugmentedKBest], [BestExcluding]: list Viterbi (MIRA, and
//     the best labeling different from the truth).
//   - [LossCount]: the "quadratic" slack-scaling algorithm that, for every
//     integer loss value, finds the best labeling with exactly that loss.
//   - [ComputeMaxMarginals]: max-marginals with back-pointers, giving for every
//     (position, label) the best labeling through it (PosLearn, sec. 4.3.1).
//   - [ForwardBackward]: log partition function and node/edge marginals.
//   - [MPM]: the labeling of maximum posterior marginals, each position's most
//     probable label.
//
// # Conventions
//
// Scores are expected to be finite. N may be 0 (the single empty labeling,
// score 0); K must be at least 1. Malformed inputs (slice lengths that do not
// match N and K, labels out of range) are programmer errors and cause a panic;
// nothing else panics.
//
// Every result is deterministic. Ties between equally scored labelings are
// broken towards the lexicographically smaller labeling (compare y_0 first,
// then y_1, ...) in every function except [MaxMarginals.Labeling], whose rule
// is given there. "Equal" means equal as computed in floating point, so the
// rule is exact when scores are small integers and otherwise only matters for
// genuine ties.
//
// A [Workspace] holds scratch buffers so that repeated calls do not allocate;
// use one per goroutine. Every function accepts a nil *Workspace.
package decoders
