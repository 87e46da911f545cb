package tasks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/internal/version"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/models/mil"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// MILName is the multiple-instance task's name.
const MILName = "mil"

// MIL is multiple-instance learning as a latent-variable model
// (models/mil; Pletscher, Ong & Buhmann 2010, sections 5 and 8.3): an item
// is a bag of feature vectors with one label, negative (class 0) or
// positive (class 1), and which instance makes a bag positive is latent.
// It trains with latent-lbeta alone and predicts with section 5's rule at
// the trained β; its metric is the bag accuracy. Its data are generated
// (datasets mil-p1, mil-p25): there is no bag file format, so `repro
// train`, `tag` and `eval` refuse it, and a model file serves only to
// keep a trained model.
type MIL struct{}

// errNoBagFiles is the answer of the file routes: bags have no format.
var errNoBagFiles = errors.New("the mil task has no file format for bags: it runs from configs on generated data (datasets mil-p1, mil-p25)")

// Name returns "mil".
func (MIL) Name() string { return MILName }

// Supports checks the trainer against an empty model: only a trainer of
// latent-variable models (latent-lbeta) runs.
func (MIL) Supports(trainer string, v trainers.Values) error {
	probe, err := mil.New(nil, 1)
	if err != nil {
		return err
	}
	return trainers.Check(trainer, probe, v)
}

// Metrics declares the bag accuracy.
func (MIL) Metrics() metrics.TaskMetrics { return metrics.ForTask(MILName) }

// NewScorer counts the bags whose label is predicted right.
func (MIL) NewScorer(c *Corpus, keep func(Outcome)) Scorer {
	return &bagScorer{c: c, keep: keep}
}

// Prepare builds the model over the training bags, whose instances have
// D features, D the largest index they use (plus the model's bias).
func (MIL) Prepare(c *Corpus, train []int, s Settings) (Fitting, error) {
	if err := trainers.Validate(s.Trainer, s.Params); err != nil {
		return nil, err
	}
	if s.Decoder != "" {
		return nil, fmt.Errorf("decoder %s: the %s model decodes by summing over a bag's instances", s.Decoder, MILName)
	}
	if c.Bags == nil {
		return nil, fmt.Errorf("the %s task needs bags of instances (a dataset of format %s)", MILName, datasets.FormatMIL)
	}
	dim := 0
	for _, i := range train {
		for _, x := range c.Bags[i] {
			if len(x.Idx) > 0 {
				dim = max(dim, int(x.Idx[len(x.Idx)-1])+1)
			}
		}
	}
	bags := make([]mil.Bag, len(train))
	for j, i := range train {
		bags[j] = mil.Bag{Instances: c.Bags[i], Label: bagLabel(c.Sequences[i].Labels[0])}
	}
	model, err := mil.New(bags, dim)
	if err != nil {
		return nil, fmt.Errorf("%s model: %w", MILName, err)
	}
	return &milFitting{settings: s, dim: dim, model: model}, nil
}

// TrainFile refuses: bags have no file format.
func (MIL) TrainFile(context.Context, string, Settings) (Model, *trainers.Result, error) {
	return nil, nil, errNoBagFiles
}

// Decode reads a multiple-instance model file (see [BagClassifier.Save]).
func (MIL) Decode(b []byte) (Model, error) { return DecodeBagClassifier(b) }

// bagLabel maps class 1 to the model's +1 and class 0 to −1.
func bagLabel(class int) int {
	if class == 1 {
		return 1
	}
	return -1
}

type bagScorer struct {
	c            *Corpus
	keep         func(Outcome)
	right, total int
}

func (s *bagScorer) Add(i int, p Prediction) error {
	if len(p.Labels) != 1 || p.Labels[0] < 0 || p.Labels[0] > 1 {
		return fmt.Errorf("item %d: prediction %v is not a bag label (class 0 or 1)", i, p.Labels)
	}
	ok := p.Labels[0] == s.c.Sequences[i].Labels[0]
	if ok {
		s.right++
	}
	s.total++
	if s.keep != nil {
		s.keep(Outcome{TokenOK: []bool{ok}})
	}
	return nil
}

func (s *bagScorer) Metrics() map[string]float64 {
	acc := 0.0
	if s.total > 0 {
		acc = 100 * float64(s.right) / float64(s.total)
	}
	return map[string]float64{metrics.BagAccuracy: acc}
}

type milFitting struct {
	settings Settings
	dim      int
	model    *mil.Model
}

func (f *milFitting) Fit(ctx context.Context, opts ...trainers.Option) (Model, *trainers.Result, error) {
	res, err := trainers.Train(ctx, f.settings.Trainer, f.model, f.settings.Params, opts...)
	if err != nil {
		return nil, nil, err
	}
	m, err := f.ModelAt(res.W)
	return m, res, err
}

func (f *milFitting) ModelAt(w []float64) (Model, error) {
	params, err := trainers.Resolve(f.settings.Trainer, f.settings.Params)
	if err != nil {
		return nil, err
	}
	beta, ok := params["beta"].(float64)
	if !ok || !(beta > 0) {
		return nil, fmt.Errorf("trainer %s has no inverse temperature β to predict with", f.settings.Trainer)
	}
	m := &BagClassifier{Trainer: f.settings.Trainer, Params: params, Version: version.String(), Features: f.dim, Beta: beta, Weights: w}
	return m, m.check()
}

// BagClassifier is a trained multiple-instance model: instance weights and
// a bias, and the β whose prediction rule it uses (section 5: a bag is
// positive iff (1/β) log((1/H) Σ_h e^{β f_h}) > 0). Its methods are safe
// for concurrent use.
type BagClassifier struct {
	Trainer  string
	Params   trainers.Values
	Version  string
	Features int // D: the weights are D instance weights, then the bias
	Beta     float64
	Weights  []float64
}

// TaskName returns "mil".
func (m *BagClassifier) TaskName() string { return MILName }

// Describe names the trainer with its params.
func (m *BagClassifier) Describe() string { return describe(m.Trainer, m.Params) }

// Predict labels bag i: class 1 (positive) or 0.
func (m *BagClassifier) Predict(c *Corpus, i int) Prediction {
	return Prediction{Labels: []int{m.Classify(c.Bags[i])}}
}

// Classify returns the class of a bag of instances (features beyond D are
// skipped): 1 if positive, else 0.
func (m *BagClassifier) Classify(bag []structpred.SparseVec) int {
	mm, err := mil.New(nil, m.Features) // scratch of its own: safe for concurrent use
	if err != nil {
		panic(fmt.Sprintf("tasks: a mil model over no data: %v", err)) // check validated the shape
	}
	if mm.Predict(bag, m.Weights, m.Beta) == 1 {
		return 1
	}
	return 0
}

// Tag refuses: bags have no file format.
func (m *BagClassifier) Tag(context.Context, io.Reader, io.Writer, string) ([]string, error) {
	return nil, errNoBagFiles
}

// Evaluate refuses: bags have no file format.
func (m *BagClassifier) Evaluate(context.Context, string) (Evaluation, []string, error) {
	return nil, nil, errNoBagFiles
}

func (m *BagClassifier) check() error {
	switch {
	case m.Features < 0 || m.Features >= math.MaxInt32:
		return fmt.Errorf("%d features", m.Features)
	case len(m.Weights) != m.Features+1:
		return fmt.Errorf("%d weights for %d features and the bias", len(m.Weights), m.Features)
	case !(m.Beta > 0):
		return fmt.Errorf("β = %v", m.Beta)
	}
	for j, w := range m.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %d is %v", j, w)
		}
	}
	return nil
}
