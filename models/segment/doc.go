// Package segment is the first-order semi-Markov segmentation model of
// Sarawagi & Cohen (2004), as used for Cora segmentation by Sarawagi & Gupta
// (ICML 2008, sections 4.3.2 and 5): feature vectors over whole segments and
// the previous segment's label, score tables, the segment loss and the
// inference every trainer of package trainers needs (see Trainers below),
// expressed through its capability interfaces. It is the segmentation
// counterpart of package models/chain and mirrors its API.
//
// # Features
//
// A segmentation y of the n tokens of x is a sequence of segments (t, u, c)
// covering [t, u) (u exclusive) with label c; the label of the segment before
// is c' (START for the first). Its feature vector decomposes over segments,
//
//	f(x, y) = Σ_j f(x, (t_j, u_j, c_j), c_{j−1}),
//
// and every segment feature is conjoined with the segment's label c. With A
// the number of attribute ids (a features.Index's Len), K labels and x_p the
// sorted attribute ids of token p, a segment (t, u, c) after c' adds 1 to
// each of the following entries (adding twice when an entry is hit twice):
//
//	template   fires for                                index in w
//	inside     every a ∈ x_p, for each p in [t, u)      5·a·K + 0·K + c   (a count: Σ_p)
//	first      every a ∈ x_t                            5·a·K + 1·K + c
//	last       every a ∈ x_{u−1}                        5·a·K + 2·K + c
//	before     every a ∈ x_{t−1}, if t > 0              5·a·K + 3·K + c
//	after      every a ∈ x_u, if u < n                  5·a·K + 4·K + c
//	BOS        t = 0 (no token before)                  5·A·K + c
//	EOS        u = n (no token after)                   5·A·K + K + c
//	length     always: bin b = min(u−t, LengthBins)     5·A·K + 2·K + (b−1)·K + c
//	edge       always (if edges): c' → c, c' = K START  5·A·K + (2+LengthBins)·K + c'·K + c
//
// so Dim() = 5·A·K + (2 + LengthBins)·K, plus (K+1)·K with edges. An
// attribute's five blocks sit side by side (attribute-major, as CRFsuite
// lays out its weights), so that scoring a token adds one contiguous row of
// 5·K weights per attribute. The first
// and last templates both fire for the single token of a length-1 segment.
// Because the token attributes of package features already include the
// neighbours' attributes (±1:…), "first" and "before" overlap in content;
// they are kept apart because where a token sits in a segment matters. The
// edge block is absent with edges switched off (the ablation of Sarawagi &
// Gupta, section 5.2). Attribute ids outside [0, A) are ignored when scoring
// (an encoder drops unknown attributes anyway); New rejects them in the
// training data.
//
// # Score tables
//
// Scoring x under w first sums, for every token p, the rows of p's
// attributes: each of the five blocks' weights for every label
// (O(n·|x_p|·5K)), then fills the semimarkov.Scores table Unary[(t·L + len−1)·K +
// c] for every segment of length 1..L: the inside term is a running sum over
// the segment's tokens, kept per start and label, so each entry costs O(1)
// plus its first/last/before/after/length terms, O(n·L·K) in all. The Trans
// table is the edge block itself. Score computes w·f(x, y) directly from the
// features (so it is defined for segments longer than L, see below), adding
// the same numbers in the same order as the tables and the decoders, so for a
// segmentation the tables can represent both agree bit for bit.
//
// # Maximum segment length
//
// Decoders consider segments of length 1..L only; L is a model parameter,
// chosen from the training data by [MaxSegmentLength] (a quantile of the
// training segment lengths, optionally capped). True segments longer than L
// are kept, not dropped or split: Truth returns them, Score and DeltaFeatures
// compute their features directly, and the loss is defined against them. No
// decoder can output them, so a training instance containing one is never
// predicted exactly (every constraint still has a well-defined δf and loss,
// and the trainers work unchanged); PosLearn has slack variables only for
// spans of length ≤ L, while a long true span still costs its recall penalty
// in the loss of every predicted segmentation. The log-linear losses are the
// exception: their sum over segmentations excludes the long truth, which
// would leave them unbounded below, so [Model.LogLoss] scores the truth with
// long segments cut into pieces of at most L tokens. [Model.LongSegments]
// reports how many training segments exceed L, so a runner can report the
// effect.
//
// # Loss
//
// The loss is semimarkov.Loss, the segment loss of section 4.3.2 (precision,
// recall and misclassification penalties; semimarkov.DefaultLoss by default).
// Exact slack scaling (BestPerLoss) needs integer penalties; the other
// trainers accept any non-negative ones.
//
// # Trainers
//
// The cutting-plane trainers use LossAugmented, BestExcluding, BestPerLoss
// and PositionViolators; the perceptron and subgradient trainers
// LossAugmented; k-best MIRA uses [Model.KBest] (list Viterbi over segment
// boundaries); the CRF and entropy-margin trainers use [Model.LogLoss], the
// margin-rescaled loss of Pletscher et al. with its gradient, from one
// semi-Markov forward-backward pass on the loss-augmented, β-tempered
// tables: the segment loss decomposes over predicted segments just as the
// features do, so the tempered distribution is again a semi-Markov model and
// its expected features are read off the segment probabilities and expected
// transition counts.
//
// The slack-rescaled log-linear loss (trainers.SlackLogLinear, Pletscher et
// al. section 3.3) is not provided: its exponent multiplies the loss by the
// score, so the sum does not factorise over segments, and an exact version
// would need a forward-backward over (boundary, label, loss so far) like
// LossCount, for every loss value. trainers.CRF refuses slack rescaling for
// this model with an error naming the missing capability.
package segment
