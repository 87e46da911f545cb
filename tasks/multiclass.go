package tasks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/version"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// MulticlassName is the multiclass task's name; TaxonomyName the
// multiclass task over a class tree.
const (
	MulticlassName = "multiclass"
	TaxonomyName   = "taxonomy"
)

// Multiclass is multiclass classification with the joint feature map of
// Crammer & Singer (2001), one weight vector per class (models/multiclass):
// items are labelled feature vectors (libsvm/svmlight files,
// datasets.ParseLibSVM, or the built-in blobs), one class each; the loss
// is a cost matrix Δ(y, y′) over the classes (0/1 by default); its metrics
// are the error rate, the average cost and the cost-weighted error (the
// average cost in percent).
//
// The features are the file's, numbered as the training part numbers them:
// the model has D features, D the largest index its training items use,
// plus a constant bias feature of value 1 at index D+1, as liblinear's
// `-B 1` appends one (so each class has an intercept, regularised with the
// rest as liblinear does). Features of other items beyond D carry no
// weight, as liblinear's predict skips them. On a document corpus (format
// brown, Corpus.Docs) the features are a tf-idf bag of words fitted on the
// training part alone (features.FitBagOfWords, every word of a training
// text), which the trained model keeps to featurise what it predicts.
//
// With Taxonomy set it is the task "taxonomy" (Tsochantaridis et al. 2004,
// section 5.2): the same model with the class embedding Λ of the
// dataset's tree (Corpus.Tree; multiclass.NewEmbedded), so that
// classes share the weights of their ancestors; the dataset's cost is
// then the tree loss (docs/taxonomy.md).
type Multiclass struct {
	Taxonomy bool
}

// multiclassBias is the value of the bias feature (liblinear's -B).
const multiclassBias = 1.0

// Name returns "multiclass", or "taxonomy" over a class tree.
func (t Multiclass) Name() string {
	if t.Taxonomy {
		return TaxonomyName
	}
	return MulticlassName
}

// Supports checks the trainer against an empty model: every inference is
// an enumeration of the classes, so every trainer runs.
func (Multiclass) Supports(trainer string, v trainers.Values) error {
	probe, err := multiclass.New(nil, 1, 2, decoders.Cost{})
	if err != nil {
		return err
	}
	return trainers.Check(trainer, probe, v)
}

// Metrics declares the error rate, the average cost and the cost error.
func (t Multiclass) Metrics() metrics.TaskMetrics { return metrics.ForTask(t.Name()) }

// NewScorer scores an item's one class: each item is one decision for
// McNemar's test.
func (t Multiclass) NewScorer(c *Corpus, keep func(Outcome)) Scorer {
	// The cost error is a percentage only while every cost is at most 1
	// (a tree loss reaches the tree's height).
	costError := !t.Taxonomy && !slices.ContainsFunc(c.Cost, func(row []float64) bool { return slices.Max(row) > 1 })
	return &classScorer{cost: flatCost(c.Cost), keep: keep, c: c, costError: costError}
}

// Prepare numbers the features as the training items do, adds the bias
// feature and builds the model over the training items with the corpus's
// cost matrix.
func (t Multiclass) Prepare(c *Corpus, train []int, s Settings) (Fitting, error) {
	if err := trainers.Validate(s.Trainer, s.Params); err != nil {
		return nil, err
	}
	if s.Decoder != "" {
		return nil, fmt.Errorf("decoder %s: the %s model decodes by enumerating its classes", s.Decoder, t.Name())
	}
	if c.Vectors == nil && c.Docs == nil {
		return nil, fmt.Errorf("the %s task needs feature vectors (a dataset of format %s) or documents (format %s)", t.Name(), datasets.FormatLibSVM, datasets.FormatBrown)
	}
	if t.Taxonomy && c.Tree == nil {
		return nil, fmt.Errorf("the %s task needs a class tree (a dataset's taxonomy)", t.Name())
	}
	if err := datasets.CheckCost(c.Cost, len(c.Labels)); err != nil {
		return nil, fmt.Errorf("cost matrix: %w (the classes, in order: %s)", err, strings.Join(c.Labels, " "))
	}
	f := &multiclassFitting{settings: s, classes: c.Labels, cost: c.Cost}
	xs := make([]structpred.SparseVec, len(train))
	if c.Docs != nil {
		bow, err := features.FitBagOfWords(c.Docs, train, 1)
		if err != nil {
			return nil, err
		}
		f.bow = bow
		for j, i := range train {
			xs[j] = bow.Transform(c.Docs[i])
		}
	} else {
		for j, i := range train {
			xs[j] = c.Vectors[i]
		}
	}
	for _, x := range xs {
		if len(x.Idx) > 0 {
			f.dim = max(f.dim, int(x.Idx[len(x.Idx)-1])+1)
		}
	}
	data := make([]multiclass.Instance, len(train))
	for j, i := range train {
		data[j] = multiclass.Instance{X: withBias(xs[j], f.dim), Label: c.Sequences[i].Labels[0]}
	}
	var err error
	if t.Taxonomy {
		emb := c.Tree.t.Embedding()
		f.emb = &emb
		if len(f.emb.Rows) != len(c.Labels) {
			return nil, fmt.Errorf("%s model: the class tree has %d classes, the data %d", t.Name(), len(f.emb.Rows), len(c.Labels))
		}
		f.model, err = multiclass.NewEmbedded(data, f.dim+1, *f.emb, flatCost(c.Cost))
	} else {
		f.model, err = multiclass.New(data, f.dim+1, len(c.Labels), flatCost(c.Cost))
	}
	if err != nil {
		return nil, fmt.Errorf("%s model: %w", t.Name(), err)
	}
	return f, nil
}

// TrainFile trains a classifier on a libsvm file, with the settings' cost
// matrix (nil: 0/1) over the file's classes in sorted order.
func (t Multiclass) TrainFile(ctx context.Context, path string, s Settings) (Model, *trainers.Result, error) {
	if t.Taxonomy {
		return nil, nil, fmt.Errorf("the %s task trains through a config (repro run): its class tree is a dataset's taxonomy", t.Name())
	}
	v, err := datasets.LoadLibSVM(path)
	if err != nil {
		return nil, nil, err
	}
	dc, xs, err := datasets.VectorCorpus(filepath.Base(path), []*datasets.Vectors{v}, nil)
	if err != nil {
		return nil, nil, err
	}
	c := &Corpus{Labels: dc.Labels, Sequences: dc.Sequences, Vectors: xs, Cost: s.Cost}
	train := make([]int, len(xs))
	for i := range train {
		train[i] = i
	}
	f, err := t.Prepare(c, train, s)
	if err != nil {
		return nil, nil, err
	}
	m, res, err := f.Fit(ctx)
	if err != nil {
		return nil, nil, err
	}
	cl := m.(*Classifier)
	cl.DataHash = vectorsHash(c)
	return cl, res, nil
}

// Decode reads a multiclass model file (see [Classifier.Save]); taxonomy
// models are not saved.
func (Multiclass) Decode(b []byte) (Model, error) { return DecodeClassifier(b) }

// ParseCost reads a cost matrix written as rows separated by ';' and
// entries by ',' ("0,1,2;1,0,1;2,1,0"), rows the true classes in sorted
// label order; its shape and entries are checked against the classes when
// it is used.
func ParseCost(s string) ([][]float64, error) {
	var out [][]float64
	for r, row := range strings.Split(s, ";") {
		var vals []float64
		for e, f := range strings.Split(row, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return nil, fmt.Errorf("cost matrix row %d, entry %d: %q is not a number", r+1, e+1, f)
			}
			vals = append(vals, v)
		}
		out = append(out, vals)
	}
	return out, nil
}

// withBias returns x's features below dim, then the bias feature at dim.
func withBias(x structpred.SparseVec, dim int) structpred.SparseVec {
	n := len(x.Idx)
	for n > 0 && int(x.Idx[n-1]) >= dim {
		n--
	}
	out := structpred.SparseVec{Idx: make([]int32, n, n+1), Val: make([]float64, n, n+1)}
	copy(out.Idx, x.Idx[:n])
	copy(out.Val, x.Val[:n])
	out.Idx = append(out.Idx, int32(dim))
	out.Val = append(out.Val, multiclassBias)
	return out
}

// flatCost is a cost matrix as the model takes it (the zero Cost for nil:
// 0/1).
func flatCost(cost [][]float64) decoders.Cost {
	if cost == nil {
		return decoders.Cost{}
	}
	c := decoders.Cost{K: len(cost)}
	for _, row := range cost {
		c.M = append(c.M, row...)
	}
	return c
}

// vectorsHash is the SHA-256 of a vector corpus's classes, labels and
// features.
func vectorsHash(c *Corpus) string {
	h := sha256.New()
	fmt.Fprintf(h, "classes %q\n", c.Labels)
	for i, s := range c.Sequences {
		fmt.Fprintf(h, "%d %v %v\n", s.Labels[0], c.Vectors[i].Idx, c.Vectors[i].Val)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// classScorer collects the true and predicted classes and scores them as
// models/multiclass defines the metrics.
type classScorer struct {
	// costError reports the cost error, a percentage only for costs in
	// [0, 1] (the taxonomy task's tree loss reaches its height).
	costError   bool
	c           *Corpus
	cost        decoders.Cost
	keep        func(Outcome)
	truth, pred []int
}

func (s *classScorer) Add(i int, p Prediction) error {
	if len(p.Labels) != 1 || p.Labels[0] < 0 || p.Labels[0] >= len(s.c.Labels) {
		return fmt.Errorf("item %d: prediction %v is not one of %d classes", i, p.Labels, len(s.c.Labels))
	}
	g, y := s.c.Sequences[i].Labels[0], p.Labels[0]
	s.truth, s.pred = append(s.truth, g), append(s.pred, y)
	if s.keep != nil {
		s.keep(Outcome{TokenOK: []bool{g == y}})
	}
	return nil
}

func (s *classScorer) Metrics() map[string]float64 {
	rate, err := multiclass.ErrorRate(s.truth, s.pred)
	if err != nil {
		panic(err) // Add keeps the two in step
	}
	cost := s.cost
	if cost.M == nil {
		cost = decoders.Hamming(len(s.c.Labels))
	}
	avg, err := multiclass.AverageCost(cost, s.truth, s.pred)
	if err != nil {
		panic(err) // Add checked the classes, Prepare or the loader the cost
	}
	out := map[string]float64{metrics.ErrorRate: rate, metrics.AverageCost: avg}
	if s.costError {
		out[metrics.CostError] = 100 * avg
	}
	return out
}

// multiclassFitting is a multiclass training: the training part's feature
// count and the model over its items.
type multiclassFitting struct {
	settings Settings
	classes  []string
	dim      int
	cost     [][]float64
	model    *multiclass.Model
	bow      *features.BagOfWords  // a document corpus's
	emb      *multiclass.Embedding // the taxonomy task's
}

func (f *multiclassFitting) Fit(ctx context.Context, opts ...trainers.Option) (Model, *trainers.Result, error) {
	res, err := trainers.Train(ctx, f.settings.Trainer, f.model, f.settings.Params, opts...)
	if err != nil {
		return nil, nil, err
	}
	m, err := f.ModelAt(res.W)
	return m, res, err
}

func (f *multiclassFitting) ModelAt(w []float64) (Model, error) {
	params, err := trainers.Resolve(f.settings.Trainer, f.settings.Params)
	if err != nil {
		return nil, err
	}
	return &Classifier{
		Trainer: f.settings.Trainer, Params: params, Version: version.String(),
		Classes: f.classes, Features: f.dim, Cost: f.cost, Weights: w,
		Embedding: f.emb, bow: f.bow,
	}, nil
}

// Classifier is a trained multiclass model: what a multiclass model file
// stores, and what multiclass units predict with. Its methods are safe
// for concurrent use; its fields must not change once it classifies.
type Classifier struct {
	// Trainer and Params (defaults resolved) are how it was trained.
	Trainer string
	Params  trainers.Values
	// DataHash is the SHA-256 of the training file's classes and vectors;
	// Version the repro that trained it.
	DataHash, Version string
	// Classes are the class labels (as the file writes them), in class
	// order: sorted by value.
	Classes []string
	// Features is D, the features of the training items; the bias
	// feature is D+1 (0-based D).
	Features int
	// Cost is the cost matrix Δ it was trained with (nil: 0/1).
	Cost [][]float64
	// Weights has K·(D+1) entries, class by class (models/multiclass);
	// M·(D+1), node by node, with an Embedding.
	Weights []float64
	// Embedding, if not nil, is the class embedding Λ of a taxonomy
	// model (task taxonomy).
	Embedding *multiclass.Embedding

	bow *features.BagOfWords // a document model's features

	models sync.Pool // of *multiclass.Model: scoring scratch, one per concurrent call
}

// TaskName returns "multiclass", or "taxonomy" with an embedding.
func (m *Classifier) TaskName() string {
	if m.Embedding != nil {
		return TaxonomyName
	}
	return MulticlassName
}

// Describe names the trainer with its params.
func (m *Classifier) Describe() string { return describe(m.Trainer, m.Params) }

// Predict classifies corpus item i.
func (m *Classifier) Predict(c *Corpus, i int) Prediction {
	if m.bow != nil {
		return Prediction{Labels: []int{m.Classify(m.bow.Transform(c.Docs[i]))}}
	}
	return Prediction{Labels: []int{m.Classify(c.Vectors[i])}}
}

// Classify returns the class of feature vector x (0-based indices; those
// beyond the training features are skipped), the lowest on ties.
func (m *Classifier) Classify(x structpred.SparseVec) int {
	mm, ok := m.models.Get().(*multiclass.Model)
	if !ok {
		var err error
		if m.Embedding != nil {
			mm, err = multiclass.NewEmbedded(nil, m.Features+1, *m.Embedding, flatCost(m.Cost))
		} else {
			mm, err = multiclass.New(nil, m.Features+1, len(m.Classes), flatCost(m.Cost))
		}
		if err != nil {
			panic(fmt.Sprintf("tasks: a multiclass model over no data: %v", err)) // check validated the shape
		}
	}
	defer m.models.Put(mm)
	return mm.Predict(withBias(x, m.Features), m.Weights)
}

// Tag classifies every example of a libsvm file (its labels, which the
// format requires, are ignored) and writes the predicted labels, one a
// line, as liblinear's predict writes its output file.
func (m *Classifier) Tag(ctx context.Context, r io.Reader, w io.Writer, name string) ([]string, error) {
	v, err := datasets.ParseLibSVM(r, name)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, x := range v.Items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.WriteString(m.Classes[m.Classify(x.X)])
		b.WriteByte('\n')
	}
	_, err = io.WriteString(w, b.String())
	return nil, err
}

// Evaluate classifies a labelled libsvm file and scores it as units do;
// a label that is none of the model's classes is an error naming its
// line.
func (m *Classifier) Evaluate(ctx context.Context, path string) (Evaluation, []string, error) {
	v, err := datasets.LoadLibSVM(path)
	if err != nil {
		return nil, nil, err
	}
	classes := make([]float64, len(m.Classes))
	for k, s := range m.Classes {
		if classes[k], err = strconv.ParseFloat(s, 64); err != nil {
			return nil, nil, fmt.Errorf("model class %q: %w", s, err)
		}
	}
	dc, xs, err := datasets.VectorCorpus(v.Name, []*datasets.Vectors{v}, classes)
	if err != nil {
		return nil, nil, err
	}
	c := &Corpus{Labels: m.Classes, Sequences: dc.Sequences, Vectors: xs, Cost: m.Cost}
	s := Multiclass{}.NewScorer(c, nil)
	for i := range xs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if err := s.Add(i, m.Predict(c, i)); err != nil {
			return nil, nil, err
		}
	}
	cs := s.(*classScorer)
	e := &MulticlassEvaluation{Items: len(xs), Metrics: s.Metrics()}
	for i, g := range cs.truth {
		if cs.pred[i] != g {
			e.Wrong++
		}
	}
	return e, nil, nil
}

// MulticlassEvaluation is a classifier's score on a labelled file.
type MulticlassEvaluation struct {
	Items, Wrong int
	// Metrics are the error rate and the average cost, as a unit reports
	// them.
	Metrics map[string]float64
}

// WriteReport writes the items, the error rate (and accuracy, as
// liblinear's predict prints it) and the average cost.
func (e *MulticlassEvaluation) WriteReport(w io.Writer) error {
	rate := e.Metrics[metrics.ErrorRate]
	_, err := fmt.Fprintf(w, "examples: %d\nerror rate: %.2f%% (%d of %d wrong; accuracy %.2f%%)\naverage cost: %.3f\n",
		e.Items, rate, e.Wrong, e.Items, 100-rate, e.Metrics[metrics.AverageCost])
	return err
}

// check validates a classifier before it classifies or is saved.
func (m *Classifier) check() error {
	k := len(m.Classes)
	outputs := k
	if m.Embedding != nil {
		outputs = m.Embedding.M
	}
	switch {
	case k < 1:
		return fmt.Errorf("classifier has no classes")
	case m.Features < 0:
		return fmt.Errorf("%d features", m.Features)
	case int64(outputs)*int64(m.Features+1) != int64(len(m.Weights)):
		return fmt.Errorf("%d weights for %d classes of %d features and the bias", len(m.Weights), k, m.Features)
	}
	if err := datasets.CheckCost(m.Cost, k); err != nil {
		return fmt.Errorf("cost matrix: %w", err)
	}
	for j, w := range m.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %d is %v", j, w)
		}
	}
	return nil
}
