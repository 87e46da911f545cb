// Package structpred holds the small set of types shared by decoders, datasets,
// models and trainers, so that none of them has to import another: sparse
// feature vectors, labelled sequences and segments, and the generic
// constraint w·a ≥ b − ξ_g that every cutting-plane trainer works with.
package structpred
