// Package tasks is the one place each kind of structured prediction lives
// whole: how its data is read, its features, its model and decoding, how
// the runner scores it, and its model file. The experiment runner's units
// (package experiments) and `repro train`, `tag` and `eval` (cmd/repro)
// both go through a [Task], so a unit and `repro train` with the same data
// and settings build the same model and predict alike.
//
// Tasks take and return plain values (a [Corpus], [Settings], trainer
// params), never a config or a unit: experiments imports tasks, never the
// reverse. Sequence labelling and segmentation wrap package tagger, which
// implements them; parsing is [Parsing] here, multiclass classification
// [Multiclass]. Each task declares its metrics ([Task.Metrics], from the
// metrics registry) and scores its items ([Task.NewScorer]), so the runner
// scores every task alike.
//
// Adding a task is its file here (a type implementing [Task], its model
// and its model file), its model package (models/<structure>), its reader
// in datasets, and one line in [All].
package tasks

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/modelfile"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

// Task is one kind of structured prediction.
type Task interface {
	// Name is the task's name in configs, unit keys and model files.
	Name() string
	// Supports refuses a trainer, with its params, that the task's model
	// cannot serve (checked on an empty model, before any data loads).
	Supports(trainer string, v trainers.Values) error
	// Metrics declares what the task reports, in table order, and the
	// metric that chooses C by default (its entry in the metrics
	// registry, metrics.Tasks).
	Metrics() metrics.TaskMetrics
	// NewScorer returns an empty scorer of predictions of c's items under
	// the declared metrics; keep, if not nil, receives each scored item's
	// outcome for the paired significance tests.
	NewScorer(c *Corpus, keep func(Outcome)) Scorer
	// Prepare indexes the features of the corpus items train only
	// (features first seen elsewhere stay unknown) and builds the task's
	// model over them, to be trained with s's trainer and params.
	Prepare(c *Corpus, train []int, s Settings) (Fitting, error)
	// TrainFile trains a model on a labelled file in the task's format,
	// with the task's default features (repro train).
	TrainFile(ctx context.Context, path string, s Settings) (Model, *trainers.Result, error)
	// Decode reads a model file of the task (see [LoadFile]).
	Decode(b []byte) (Model, error)
}

// Corpus is a dataset with its features extracted, as the runner holds it
// (shared read-only by every unit over it).
type Corpus struct {
	// Labels are the label names by id.
	Labels    []string
	Sequences []structpred.Sequence
	// Attrs returns item i's attribute strings, per token (templates or
	// given features); nil for treebanks.
	Attrs func(i int) [][]string
	// Values, if not nil, returns the values that scale item i's Attrs,
	// position by position (given attributes with values, normalised
	// pixels); nil means every value of every item is 1.
	Values func(i int) [][]float64
	// Arcs are a treebank's arc features per sentence (see ArcFeatures).
	Arcs []*features.Dependency
	// Chunked says that Labels are chunk tags (O, B-X, I-X, internally
	// IOB2) read from a file in Scheme: spans are scored as conlleval's
	// chunks, and the token error also in the file's encoding.
	Chunked bool
	Scheme  datasets.Scheme
	// Vectors are the feature vectors of a vector dataset (libsvm, blobs),
	// one per item, whose one-token sequence holds its class; Cost is its
	// cost matrix over the classes (nil: 0/1).
	Vectors []structpred.SparseVec
	Cost    [][]float64
	// Bags are the instances of each bag of a multiple-instance dataset,
	// one per item, whose one-token sequence holds its label.
	Bags [][]structpred.SparseVec
	// Docs are the words of a document corpus's items (format brown), one
	// class each: the multiclass tasks fit a bag of words on each
	// training part (features.FitBagOfWords) instead of taking Vectors.
	Docs [][]string
	// Tree is a dataset's taxonomy, whose class embedding Λ the taxonomy
	// task trains with (nil: none).
	Tree *ClassTree
	// Trees are a treebank's phrase-structure trees (format ptb),
	// preprocessed, one per item: the cfg task's gold trees.
	Trees []datasets.PhraseTree
	// Alignments are generated alignment examples, one per item (the
	// alignment task's; AlignmentCorpus).
	Alignments *AlignmentData
}

// Settings are a training's trainer and, where the task has them, its
// feature and loss settings.
type Settings struct {
	Trainer string
	Params  trainers.Values
	// Features are the attribute templates of sequence and segmentation
	// models (recorded in their model files).
	Features tagger.Features
	// SegmentQuantile and SegmentLoss are segmentation's (zero: the
	// defaults, see tagger.Options).
	SegmentQuantile float64
	SegmentLoss     structpred.SegmentLoss
	// Cost is the multiclass cost matrix TrainFile trains with (nil: 0/1;
	// units take their dataset's, Corpus.Cost).
	Cost [][]float64
	// Decoder is the MAP decoder of the sequence and parsing models: ""
	// (the exact combinatorial one) or DecoderILP. A model file records
	// it, so tag and eval decode as training did.
	Decoder string
}

// DecoderILP selects decoders/ilp, the argmax as an integer linear
// program (Daumé's chapter, section 17.6), for the MAP and loss-augmented
// MAP of the sequence and parsing models: a slow reference (docs/ilp.md).
const DecoderILP = tagger.DecoderILP

// Fitting is a training ready to run: the task's model over the encoded
// training items (everything before training, untimed).
type Fitting interface {
	// Fit trains with the settings' trainer and params (opts are the
	// trainers' options, e.g. checkpoints) and returns the trained model,
	// the value a model file stores.
	Fit(ctx context.Context, opts ...trainers.Option) (Model, *trainers.Result, error)
	// ModelAt returns the model with weights w (a checkpoint's), as Fit
	// would return it had training stopped there.
	ModelAt(w []float64) (Model, error)
}

// Prediction is a model's output for one corpus item.
type Prediction struct {
	// Labels holds a label id per token; for parsing, word d's head at
	// d-1 (0 is the root), as the corpus holds the gold heads.
	Labels []int
	// Segments are the predicted segments (segmentation), or the maximal
	// runs of one label (sequence labelling).
	Segments []structpred.Segment
	// Tree is the predicted phrase-structure tree (cfg), Fallback whether
	// it is the fallback parse of a sentence the grammar cannot parse.
	Tree     datasets.PhraseTree
	Fallback bool
}

// Model is a trained model: what a model file stores, what units predict
// with, and what `repro tag` and `repro eval` run.
type Model interface {
	// TaskName is the model's task.
	TaskName() string
	// Describe names the trainer and its params.
	Describe() string
	// Predict predicts corpus item i (c's features, as Prepare took
	// them). It is safe for concurrent use.
	Predict(c *Corpus, i int) Prediction
	// SaveFile writes the model file atomically.
	SaveFile(path string) error
	// Tag reads unlabelled (or labelled) text in the task's format from r
	// and writes it to w with the predictions filled in; name is r's name
	// in errors. It returns warnings for the user.
	Tag(ctx context.Context, r io.Reader, w io.Writer, name string) (warnings []string, err error)
	// Evaluate scores the model on a labelled file as units score it.
	Evaluate(ctx context.Context, path string) (Evaluation, []string, error)
}

// Evaluation is a model's score on labelled data.
type Evaluation interface {
	// WriteReport writes it for the user.
	WriteReport(w io.Writer) error
}

// The names of the tasks package tagger implements.
const (
	SequenceName     = tagger.Sequence
	SegmentationName = tagger.Segmentation
)

// All returns every task, one line each. It is a function, not a package
// variable, so that there is no mutable global state.
func All() []Task {
	return []Task{
		tagging{tagger.Sequence},
		tagging{tagger.Segmentation},
		Parsing{},
		Multiclass{},
		MIL{},
		Multiclass{Taxonomy: true},
		CFG{},
		Alignment{},
	}
}

// Names returns the task names, sorted.
func Names() []string {
	var names []string
	for _, t := range All() {
		names = append(names, t.Name())
	}
	slices.Sort(names)
	return names
}

// Lookup returns the task called name.
func Lookup(name string) (Task, error) {
	for _, t := range All() {
		if t.Name() == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("unknown task %q (known: %s)", name, strings.Join(Names(), ", "))
}

// LoadFile reads a model file of any task: its header names the task,
// whose Decode reads the rest.
func LoadFile(path string) (Model, error) {
	return LoadFileContext(context.Background(), path)
}

// LoadFileContext is [LoadFile] that stops reading once ctx is done, and
// refuses a file that is no model file, or one over the model-file bound,
// before reading it whole (internal/modelfile.ReadFile).
func LoadFileContext(ctx context.Context, path string) (Model, error) {
	b, err := modelfile.ReadFile(ctx, path)
	if err != nil {
		return nil, err
	}
	m, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Decode parses the bytes of a model file of any task.
func Decode(b []byte) (Model, error) {
	name, err := modelfile.Task(b)
	if err != nil {
		return nil, err
	}
	t, err := Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", modelfile.ErrFormat, err)
	}
	return t.Decode(b)
}

// decodeVersioned opens a model file, refuses another format version than
// want (naming the task whose model it is not), and parses the rest with
// decode; every parse error wraps modelfile.ErrFormat.
func decodeVersioned[M any](b []byte, want uint32, task string, decode func(*bufio.Reader) (M, error)) (M, error) {
	var zero M
	v, r, err := modelfile.Open(b)
	if err != nil {
		return zero, err
	}
	if v != want {
		return zero, fmt.Errorf("%w: model file format version %d, not a %s model's (version %d)", modelfile.ErrFormat, v, task, want)
	}
	m, err := decode(r)
	if err != nil {
		return zero, fmt.Errorf("%w: %w", modelfile.ErrFormat, err)
	}
	return m, nil
}

// saveHeaderAndWeights writes a model file of the format version whose
// payload is the JSON header followed by the weights, the layout of every
// task's file but parsing's (which has feature hashes between the two).
func saveHeaderAndWeights(w io.Writer, version uint32, header any, weights []float64) error {
	err := modelfile.Write(w, version, func(w io.Writer) error {
		buf, err := modelfile.AppendHeader(nil, header)
		if err != nil {
			return err
		}
		_, err = w.Write(modelfile.AppendWeights(buf, weights))
		return err
	})
	if err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return nil
}

// readHeader reads and decodes a model file's JSON header.
func readHeader[H any](r *bufio.Reader) (H, error) {
	var h H
	js, err := modelfile.ReadHeader(r)
	if err != nil {
		return h, err
	}
	err = modelfile.DecodeHeader(js, &h)
	return h, err
}

// readFinalWeights reads the n weights that end a model file and checks
// that nothing follows them.
func readFinalWeights(r *bufio.Reader, n int) ([]float64, error) {
	weights, err := modelfile.ReadWeights(r, n)
	if err != nil {
		return nil, err
	}
	if err := modelfile.AtEnd(r); err != nil {
		return nil, err
	}
	return weights, nil
}
