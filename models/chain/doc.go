// Package chain is the first-order linear-chain model for sequence labelling:
// feature vectors, scores, losses and the decoders every trainer needs,
// expressed through the capability interfaces of package trainers.
//
// Weights are laid out as two blocks. State weights w[a·K + y] tie input
// attribute a (an id from a features.Index) to label y; transition weights
// w[A·K + y'·K + y] score label y' followed by y, where A is the number of
// attributes. With edges switched off (the ablation of Sarawagi & Gupta,
// section 5.2) the transition block is absent and the model factorises over
// positions. So
//
//	f(x, y) = Σ_t Σ_{a∈x_t} e[a·K + y_t] + Σ_{t≥1} e[A·K + y_{t−1}·K + y_t].
//
// Attributes are binary unless an instance gives them values
// (Instance.Values, as CRFsuite's attribute files do): attribute a of token
// t with value v_ta then contributes v_ta·e[a·K + y_t] instead of
// e[a·K + y_t], to scores, feature differences and gradients alike.
//
// A model restricted to attribute–label pairs (Restrict, e.g. SeenPairs: the
// pairs of the training data, CRFsuite's default model) has state weights
// for the listed pairs only, w[j] for pair j of the table, followed by the
// transitions; an unlisted pair has no feature at all.
//
// The loss is per-position, L(y) = Σ_t M[y_i,t·K + y_t] (Hamming by default).
package chain
