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
// # CoNLL column files
//
// [ParseCoNLL] reads the column format of the CoNLL shared tasks (one token
// per line, a blank line after each sentence, -DOCSTART- lines between
// documents) as a [CoNLLFormat] declares it: which column is the word and
// which the label (by default the first and the last; the others are kept
// per token in Sequence.Columns), the label encoding ([Scheme]: IOB1, IOB2
// or BIO, IOE1, IOE2, IOBES, or plain labels) and the text encoding (UTF-8
// or Latin-1). Whatever the file's scheme, chunks become one internal form:
// labels "O", "B-T", "I-T" ([BIOLabels]) and one segment per chunk, so
// [WriteCoNLL] can write them back in any scheme, the file's own included,
// byte for byte for files in the canonical layout. Sequence.Doc numbers the
// documents.
//
// A tag the declared scheme does not write where it stands (IOB2's I-X
// after O, IOB1's B-X after anything but X, IOE's and IOBES's mirror
// images) is an error naming the file and line, with a hint when the file is
// probably in the sibling scheme; with CoNLLFormat.Repair it is read as
// conlleval reads it (a chunk starts or ends there) and returned as a
// repair. A line with the wrong number of columns, invalid UTF-8 and a file
// with no sentences are always errors. [CoNLL2003] (English NER, IOB1; its eng.train
// has two B-MISC tags after O, read with Repair) and [CoNLL2000] (chunking,
// IOB2) describe the standard files; their Load gives train, development and
// test one label list ([LoadCoNLLFiles]) and says where to obtain a missing
// file.
//
// # CRFsuite attribute files
//
// [ParseCRFsuite] reads the data format of CRFsuite's `crfsuite learn`
// (LABEL<TAB>attr[:value]<TAB>..., a blank line after each sequence, '\:'
// and '\\' escaping ':' and '\' in names), so that repro can be trained on
// exactly the features another tool was given: the attributes come back
// as [Attributes], used as given, with CRFsuite's scaling values where the
// file has them. Input that CRFsuite would read by accident rather than by
// rule (CRLF line ends, a second ':', garbage values, empty sequences,
// @weight declarations) is refused with its file and line.
// [WriteCRFsuite] writes the format back.
//
// # Bracketed treebanks
//
// [ReadPhraseTrees] reads Penn Treebank bracketed trees (the .mrg files:
// an outer unlabelled bracket, (TAG word) pre-terminals) and
// [WritePhraseTrees] writes them back; [JohnsonPreprocess] strips empty
// elements, function tags and indices as Johnson (1999) does.
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
// carves a validation part out of a training part. [ReadSplitFile] reads
// explicit splits (JSON or CSV lists of sequence indices), so that
// published splits, or those another tool ran on, reproduce exactly.
package datasets
