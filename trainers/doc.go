// Package trainers learns the weight vector of a linear structured model.
//
// The cutting-plane trainers (margin scaling, slack scaling, ApproxSlack and
// PosLearn) share one entry point, CuttingPlane, over constraints of the
// single form
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
// with δf_i(y) = f(x_i, y_i) − f(x_i, y). Margin and slack take two
// options (VariantParams): delta zero-one puts Δ = 1 for every wrong
// labeling in place of L_i (then a_j = δf_i(y), b_j = 1 for both, from a
// truth-excluding decoder), and slack_penalty quadratic minimises
// ½‖w‖² + (C/2) Σ_g ξ_g² with √L_i in place of L_i (Tsochantaridis et
// al.'s SVM_2), which both solvers run as a hard-margin problem over
// constraints augmented by one coordinate per group (augmentedSeparator;
// docs/svm-variants.md). Two solvers reach the same
// optimum (Settings.Solver):
//
//   - n-slack (the default, the papers' formulation): Tsochantaridis et
//     al. (2004), Algorithm 1, one slack per group, the working-set dual
//     solved by exact block coordinate ascent (see workingSet). By default
//     it stops on the true gap: when a pass adds no constraint and the
//     working-set gap plus the cutting-plane part of the true gap is within
//     C·G·ε (G groups).
//   - one-slack: Joachims, Finley & Yu (2009), one slack shared by joint
//     constraints that sum every group's most violated constraint, a small
//     dense dual with a cached Gram matrix, inactive constraints dropped
//     and a per-instance constraint cache that spares most oracle calls. It
//     stops when an oracle pass's joint constraint is within G·ε of the
//     slack, the same C·G·ε bound.
//
// Every result reports Primal, the true primal at the returned w (every
// group's slack over the full constraint set, from one exact separation
// pass, or for ApproxSlack from a Settings.Certifier), the working-set Dual
// and their Gap, which bounds the sub-optimality; the working-set figures
// are WorkingPrimal and WorkingGap.
//
// The other seed papers' trainers share the model interfaces but not the
// solver: Perceptron (averaged, with the lazy-update trick), MIRA (k-best,
// with each example's small QP solved exactly), Subgradient (Daume's
// Algorithm 41, Pegasos step sizes) and CRF, which minimises Pletscher et
// al.'s entropy-and-margin loss l_β (the CRF at β = 1 without an error term)
// with L-BFGS (package internal/lbfgs: gonum's iterates); PassiveAggressive
// (PA-I, Crammer et al. 2006) is the one-file example of adding a trainer.
// TrainHMM counts the generative HMM baseline (not yet in the registry; see
// HMM).
//
// # The registry
//
// Every trainer is a Trainer[Y] in one table (registry.go), found by name:
// Train(ctx, name, model, params) trains, Check(name, model, params) says
// why a model cannot be trained (the capability it lacks), Resolve fills a
// trainer's defaults and Specs/Help describe every trainer, its params and
// what its C means. Params are flat Values (the config's keys: C, epsilon,
// epochs, k, ...) decoded strictly into the trainer's own typed params
// struct (CuttingPlaneParams, MIRAParams, ...), whose Resolved method holds
// the defaults and Validate the ranges. Each trainer's file (margin.go,
// slack.go, approxslack.go, poslearn.go, perceptron.go, mira.go,
// subgradient.go, crf.go, lbeta.go, passiveaggressive.go) holds its params
// and the meaning of its C; adding a trainer is a new file plus one line in
// registry.go.
//
// # Checkpoints
//
// A caller that plots accuracy against training time passes
// WithCheckpoints(f) to Train: every trainer then calls f with the weights
// it would return if stopped there and its own CPU time so far (the hook's
// excluded), after every epoch of an online trainer and at geometrically
// spaced iterations of the cutting-plane solvers and L-BFGS, the last call
// at the returned weights (see CheckpointFunc). Checkpoints observe and
// never steer: the result is bit-identical with or without a hook.
//
// Trainers see models only through the capability interfaces of
// capabilities.go (Model, LossAugmentedDecoder, ...), which models implement
// without importing this package; a trainer whose model lacks a capability
// is refused before training starts.
package trainers
