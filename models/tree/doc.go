// Package tree is the first-order dependency parsing model: a sentence's
// arcs carry indexed features (package features' arc templates), an arc
// scores the sum of its features' weights, and a tree the sum of its arcs'
// scores, decoded by package decoders/mst (Chu-Liu/Edmonds by default,
// Eisner for projective trees). The loss is the number of words with a
// wrong head, which decomposes over arcs, so loss-augmented decoding is
// MAP on shifted arc scores.
//
// The model serves margin scaling, PosLearn (section 4.3.3 of Sarawagi &
// Gupta: violators from the MAP tree, and MAP again with the correct head
// disabled where the MAP tree is right), the perceptron, k-best MIRA and
// the other trainers that need (loss-augmented or k-best) decoding. It
// offers no loss-count decoding, so slack scaling and ApproxSlack refuse
// it: MAP over trees with a given number of wrong heads is not tractable
// (the paper's "-" in Table 1).
//
// It implements the capability interfaces of package trainers
// structurally; it does not import trainers.
package tree
