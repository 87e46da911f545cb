// Package align is the sequence alignment task of Tsochantaridis et al.
// (2004, section 5.4), after Joachims (2003): given a native sequence s, a
// homologue t with its true alignment a, and decoys t¹..tᵏ, learn a linear
// local-alignment score w so that the homologue is the best match of s.
//
// The joint feature map Ψ(s, t, a) is the alignment's histogram of
// operations: the count of every substitution pair (native letter,
// candidate letter), A·A features (400 for 20 letters), and the number of
// gap columns (one feature, insertions and deletions alike), so that
// w·Ψ(s, t, a) is the score decoders/align computes with Sub = w[:A·A] and
// Gap = w[A·A].
//
// A labeling of example i is a candidate with an alignment: the homologue
// with its true alignment (the truth), or a decoy with any local
// alignment. The loss is zero-one on the candidate (the homologue is
// selected or not), so the constraints are the paper's
//
//	w·Ψ(s, t, a) ≥ w·Ψ(s, tʲ, a′) + 1 − ξ   for every decoy j and alignment a′,
//
// whose most violated one is one Smith-Waterman run per decoy. With
// Options.Alternatives the homologue's other alignments are labelings too,
// at loss 0 (zero-one on the candidate): margin rescaling then also asks
// w·Ψ(s, t, a) ≥ w·Ψ(s, t, a′) − ξ, the true alignment at least as good as
// any other alignment of the homologue; slack rescaling, which multiplies
// by the loss, ignores them.
//
// Prediction is argmax over candidates of the best alignment score; an
// example counts as correct only if the homologue's best alignment scores
// strictly above every decoy's (ties are errors, so a zero w selects
// nothing).
//
// Generate draws examples as documented in docs/alignment.md; Generative
// is the log-odds baseline. The model implements the trainers'
// LossAugmentedDecoder and LossCountDecoder (margin and slack rescaling,
// both solvers) and Forker structurally; it does not import trainers.
package align
