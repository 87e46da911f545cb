// Package structpred holds the small set of types shared by decoders, datasets,
// models and trainers, so that none of them has to import another: sparse
// feature vectors, labelled sequences and segments, the generic
// constraint w·a ≥ b − ξ_g that every cutting-plane trainer works with,
// the Model interface every trainer needs of a model (trainers.Model), and
// CheckTree, the dependency-tree check that treebank readers and tree
// decoders share.
package structpred
