// Package mil is multiple-instance learning (Pletscher, Ong & Buhmann
// 2010, section 8.3) as a latent-variable structured model: a bag of
// instances x_1..x_H has a label y ∈ {−1, +1}, and which instance makes a
// positive bag positive is the latent z. The joint feature map is
//
//	f(X, +1, z) = ψ(x_z),   f(X, −1, z) = 0,   ψ(x) = (x, 1),
//
// z ∈ {1..H} for both labels (section 5's one latent set Z), so s(+1, z) =
// w·x_z + b is instance z's score and the negative label has H states of
// score 0 (Yu & Joachims' 2009 MIL map). The loss is 0/1 on the bag label.
// Pletscher et al.'s latent ℓ_β (section 5) is then, with f_h = s(+1, h)
// and λ the loss scale,
//
//	ℓ_β = (1/β) log(H e^{βλ[y=+1]} + Σ_h e^{β(f_h + λ[y=−1])}) − (1/β) log T,
//
// T = Σ_h e^{β f_h} for a positive bag and H for a negative one. (With one
// latent state for the negative label instead, its log H/β offset against
// the positive label would have to be learnt by the bias, which the
// regulariser forbids at small β: β = 0.1 then predicts one label for
// every bag.) As β → ∞
// it is MI-SVM's hinge (Andrews et al. 2003): max(0, 1 − max_h f_h) on a
// positive bag, max(0, 1 + max_h f_h) on a negative one, at λ = 1. At β = 1
// without loss it is the likelihood of P(+1 | X) = m / (1 + m), m = (1/H)
// Σ_h e^{f_h}, a soft-max combination of instance scores (the MI/LR family
// of Ray & Craven 2005). The bag's score (1/β) log((1/H) Σ_h e^{β f_h}) is
// a soft maximum that tends to the mean instance score as β → 0: the bag
// is judged by the average of its instances, which is why small β suits
// bags whose positives are hard to tell from the negatives.
//
// Prediction follows section 5: the latent variable is summed out at
// finite β, y = +1 iff (1/β) log((1/H) Σ_h e^{β f_h}) > 0, and maximised
// out as β → ∞, y = +1 iff max_h f_h > 0.
//
// The model implements trainers.LatentLogLinear structurally; it does not
// import trainers.
package mil
