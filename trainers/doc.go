// Package trainers learns the weight vector of a linear structured model.
//
// The cutting-plane trainers (margin scaling, slack scaling, ApproxSlack and
// PosLearn) share one solver, CuttingPlane: Tsochantaridis et al. (2004),
// Algorithm 1, with one slack variable per group, over a working set of
// constraints of the single form
//
//	w·a_j ≥ b_j − ξ_g(j),   ξ_g ≥ 0,
//
// minimising ½‖w‖² + C Σ_g ξ_g. What distinguishes the trainers is only the
// separation oracle (a Separator) that proposes new constraints:
//
//	trainer       group                 a_j                 b_j
//	margin        instance i            δf_i(y)             L_i(y)
//	slack         instance i            L_i(y)·δf_i(y)      L_i(y)
//	approx-slack  instance i            L_i(y)·δf_i(y)      L_i(y)
//	poslearn      (instance i, pos c)   L_ic(y_c)·δf_i(y)   L_ic(y_c)
//
// with δf_i(y) = f(x_i, y_i) − f(x_i, y). The dual of the working-set QP is
// solved by exact block coordinate ascent (see workingSet); every result
// reports iterations, constraints, primal and dual objective and their gap.
//
// The other seed papers' trainers share the model interfaces but not the
// solver: Perceptron (averaged, with the lazy-update trick), MIRA (k-best,
// with each example's small QP solved exactly), Subgradient (Daume's
// Algorithm 41, Pegasos step sizes) and CRF, which minimises Pletscher et
// al.'s entropy-and-margin loss l_β (the CRF at β = 1 without an error term)
// with gonum's L-BFGS. CanTrain checks any trainer against a model.
//
// Trainers see models only through the small capability interfaces below
// (Model, LossAugmentedDecoder, ...); a trainer whose model lacks a
// capability is refused before training starts (see Requires).
package trainers
