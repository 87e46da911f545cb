// Package cfg is the weighted context-free grammar model of Tsochantaridis
// et al. (2004, section 5.5) in Johnson (1999)'s set-up: part-of-speech
// tags are the terminals, the grammar is every rule of the training trees
// (plus TOP → X for each root label X), a tree's features count its rules,
// so a tree scores the sum of its rules' weights, and package decoders/cky
// parses (its doc says how rules are binarised and unary chains bounded).
//
// The losses are zero-one and Δ = 1 − F1 over labelled brackets. Margin
// rescaling (LossAugmented), ApproxSlack's truth-excluding step
// (BestExcluding) and exact slack rescaling (BestPerLoss) are exact for
// both: zero-one from the 2-best parses, 1 − F1 from the chart of
// (matched, predicted) bracket counts. MLE gives the generative baseline
// (a PCFG by relative frequencies, log-probabilities as weights) in the
// same weight space; PhraseBrackets, Evaluate and Summarize are the
// metrics (evalb-style labelled P/R/F1 and exact-tree accuracy, per
// sentence outcomes); Parse falls back to a flat tree for a sentence the
// grammar cannot parse, and Coverage counts those.
//
// It implements the capability interfaces of package trainers
// structurally; it does not import trainers.
package cfg
