// Package datasets loads the labelled sequence corpora used in the
// experiments, generates synthetic ones, and draws the random train/test
// splits the experiments average over.
//
// # Cora
//
// The Cora citation-extraction set (McCallum et al. 2000; used by Peng &
// McCallum 2004 and by Sarawagi & Gupta 2008, section 5) holds 500
// hand-tagged bibliographic references. The file alternates a line holding
// only <NEWREFERENCE> with one reference line whose whitespace-separated
// tokens are wrapped in non-nested field tags:
//
//	<NEWREFERENCE>
//	<author> A. Cau, R. Kuiper, and W.-P. de Roever. </author> <title> ... </title> <date> 1992. </date>
//
// [ParseCora] gives every token the label of its enclosing field. The 13
// labels are the tag names in alphabetical order (see [CoraLabels]), without
// BIO prefixes, so label ids never depend on which field happens to come
// first in a file. Every tag occurrence becomes one segment, so two adjacent
// fields with the same label stay two segments. Malformed input is reported
// as a [*ParseError] naming the file, line and field.
//
// The data is not part of the repository. [ResolveDataDir] picks the data
// directory (--data flag, then the REPRO_DATA environment variable, then
// [DefaultDataDir]) and [Open] loads a dataset from it by name, explaining
// where to obtain the file when it is missing.
//
// # Synthetic data
//
// [Synthetic] generates chain-structured sequences from a sticky Markov chain
// over labels with ambiguous, label-dependent emissions, so that label
// transitions (edge features) carry real information. It is deterministic in
// its [SyntheticConfig], seed included.
//
// # Splits
//
// [RandomSplits] draws the repeated random train/test splits (the paper
// averages Cora over ten 25%/75% splits); split k depends only on the seed
// and k, so any split can be recomputed alone with [SplitAt]. [HoldOut]
// carves a validation part out of a training part.
package datasets
