// Package multiclass is the multiclass classification model of Crammer &
// Singer (2001) as a structured model with a single output: an input x (a
// sparse or dense feature vector over D features) gets one of K classes.
// Its joint feature map puts x in the block of its class,
//
//	f(x, y) = e_y ⊗ x,   so   s(y) = w_y·x,   w_y = w[y·D : (y+1)·D],
//
// one weight vector per class, laid out class by class. The loss is a cost
// matrix Δ(y, y′) (decoders.Cost: non-negative, zero diagonal; 0/1 by
// default): L_i(y) = Δ(y_i, y).
//
// A class embedding Λ (NewEmbedded, embed.go) generalises the map to
// f(x, y) = Λ(y) ⊗ x, s(y) = Σ_m Λ_ym w_m·x: with Λ(y) the nodes on the
// path to y in a taxonomy (package taxonomy), classes share their
// ancestors' weights (Tsochantaridis et al. 2004, section 5.2); Λ = I is
// the flat model above. Everything below holds for any Λ.
//
// With K labelings per instance every inference problem is solved exactly
// by enumerating the classes: loss-augmented decoding (margin scaling),
// the best class of each loss value (exact slack scaling, whatever the
// costs), the best wrong class (ApproxSlack's top-2 step), k-best lists
// (MIRA), the single position's violator (PosLearn, which on one position
// is slack scaling), the partition functions of the CRF (multinomial
// logistic regression) and of Pletscher et al.'s ℓβ, margin- and
// slack-rescaled. The model implements the capability interfaces of
// package trainers structurally; it does not import trainers.
//
// ErrorRate and AverageCost are the task's metrics; Outcomes gives the
// per-item correctness that paired tests need.
package multiclass
