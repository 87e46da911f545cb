package trainers

import (
	"context"
	"fmt"
	"strings"
)

// Trainer is one training algorithm for models whose labelings have type Y.
// Every trainer of this package is one, listed by name in the registry
// (see Lookup), so that a caller (a config, a command line) needs no switch
// over trainers: it names one and passes its params as Values.
type Trainer[Y any] interface {
	// Spec describes the trainer: its name, what it does, what C means for
	// it and the params it accepts.
	Spec() Spec
	// Check reports whether the trainer can train m with params v: nil, or
	// an error naming the capability m lacks or the param that is wrong. It
	// trains nothing, so it can run on an empty probe model when a config
	// is validated.
	Check(m Model[Y], v Values) error
	// Train trains m with params v (absent params take their defaults).
	// Options (e.g. WithCheckpoints) change what the caller observes,
	// never the result.
	Train(ctx context.Context, m Model[Y], v Values, opts ...Option) (*Result, error)
	// Resolve returns v with every param the trainer accepts at the value
	// training uses (defaults filled in; a required param absent from v
	// stays at its zero value). It fails only on a key the trainer does not
	// accept or a value of the wrong type; ranges are Train's to check.
	Resolve(v Values) (Values, error)
	// Validate checks v as Train would before training: keys, types and,
	// with defaults resolved, ranges; a bad param is a *ParamError.
	Validate(v Values) error
}

// registry lists every trainer, in the order names are shown. It is a
// function, not a package variable, so that there is no mutable global
// state; adding a trainer is one line here and one file of its own.
func registry[Y any]() []Trainer[Y] {
	return []Trainer[Y]{
		marginTrainer[Y](), slackTrainer[Y](), approxSlackTrainer[Y](), posLearnTrainer[Y](),
		perceptronTrainer[Y](), miraTrainer[Y](), subgradientTrainer[Y](),
		crfTrainer[Y](), entropyMarginTrainer[Y](),
		passiveAggressiveTrainer[Y](), latentLBetaTrainer[Y](),
		hmmTrainer[Y](),
		generativeTrainer[Y](),
	}
}

// Lookup returns the trainer called name, or an error listing the known
// names.
func Lookup[Y any](name string) (Trainer[Y], error) {
	for _, t := range registry[Y]() {
		if t.Spec().Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("unknown trainer %q (known: %v)", name, Names())
}

// Train trains m with the trainer called name and params v (see
// Trainer.Train for opts).
func Train[Y any](ctx context.Context, name string, m Model[Y], v Values, opts ...Option) (*Result, error) {
	t, err := Lookup[Y](name)
	if err != nil {
		return nil, err
	}
	return t.Train(ctx, m, v, opts...)
}

// Check reports whether the trainer called name can train m with params v
// (see Trainer.Check).
func Check[Y any](name string, m Model[Y], v Values) error {
	t, err := Lookup[Y](name)
	if err != nil {
		return err
	}
	return t.Check(m, v)
}

// CanTrain reports whether the trainer called name can train model m with
// its default params: nil if m has every capability the trainer needs,
// otherwise an error naming the missing one.
func CanTrain[Y any](name string, m Model[Y]) error { return Check(name, m, nil) }

// Resolve returns the params the trainer called name trains with for v
// (see Trainer.Resolve).
func Resolve(name string, v Values) (Values, error) {
	t, err := Lookup[struct{}](name)
	if err != nil {
		return nil, err
	}
	return t.Resolve(v)
}

// Validate checks params v for the trainer called name (see
// Trainer.Validate).
func Validate(name string, v Values) error {
	t, err := Lookup[struct{}](name)
	if err != nil {
		return err
	}
	return t.Validate(v)
}

// Specs describes every trainer, in registry order.
func Specs() []Spec {
	var out []Spec
	for _, t := range registry[struct{}]() {
		out = append(out, t.Spec())
	}
	return out
}

// SpecOf describes the trainer called name.
func SpecOf(name string) (Spec, error) {
	t, err := Lookup[struct{}](name)
	if err != nil {
		return Spec{}, err
	}
	return t.Spec(), nil
}

// Names lists every trainer's name, in registry order.
func Names() []string {
	var out []string
	for _, t := range registry[struct{}]() {
		out = append(out, t.Spec().Name)
	}
	return out
}

// Help writes every trainer's description and params, one block per
// trainer (for a command's -help, as `crfsuite learn -H` does).
func Help() string {
	var b strings.Builder
	for i, s := range Specs() {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.String())
	}
	return b.String()
}

// entry is a Trainer built from typed params P: it decodes Values into P,
// resolves P's defaults, validates, checks the model and trains. Every
// trainer of the package is an entry; its own file supplies the three
// functions and the text.
type entry[Y any, P params[P]] struct {
	name    string
	summary string
	// c says what C means for this trainer ("" if it has none).
	c     string
	check func(m Model[Y], p P) error
	train func(ctx context.Context, m Model[Y], p P, o options) (*Result, error)
}

func (e entry[Y, P]) Spec() Spec {
	return Spec{Name: e.name, Summary: e.summary, C: e.c, Params: describe[P]()}
}

// params decodes, resolves and validates v: what v states (checkGiven),
// then the resolved params' ranges (checkRanges) and the rules that join
// them (Validate).
func (e entry[Y, P]) params(v Values) (P, error) {
	p, err := decodeParams[P](e.name, v)
	if err != nil {
		return p, err
	}
	if err := checkGiven(describe[P](), v); err != nil {
		return p, fmt.Errorf("trainer %q: %w", e.name, err)
	}
	p = p.Resolved()
	if err := checkRanges(p); err != nil {
		return p, fmt.Errorf("trainer %q: %w", e.name, err)
	}
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("trainer %q: %w", e.name, err)
	}
	return p, nil
}

func (e entry[Y, P]) Check(m Model[Y], v Values) error {
	p, err := decodeParams[P](e.name, v)
	if err != nil {
		return err
	}
	return e.check(m, p.Resolved())
}

func (e entry[Y, P]) Train(ctx context.Context, m Model[Y], v Values, opts ...Option) (*Result, error) {
	p, err := e.params(v)
	if err != nil {
		return nil, err
	}
	if err := e.check(m, p); err != nil {
		return nil, err
	}
	return e.train(ctx, m, p, collectOptions(opts))
}

func (e entry[Y, P]) Validate(v Values) error {
	_, err := e.params(v)
	return err
}

func (e entry[Y, P]) Resolve(v Values) (Values, error) {
	p, err := decodeParams[P](e.name, v)
	if err != nil {
		return nil, err
	}
	return encodeParams(p.Resolved()), nil
}

// needs returns nil if m implements the capability C, else the error that
// says which capability (what) the trainer name needs.
func needs[C any, Y any](name, what string, m Model[Y]) error {
	if _, ok := m.(C); !ok {
		return fmt.Errorf("trainer %q needs %s, which this task does not provide", name, what)
	}
	return nil
}

// perExample returns the trade-off a trainer weighs the summed losses with:
// c, or c/n when perExample is set (SVM-struct's convention: C weighs the
// mean loss, so a C chosen on a validation part means the same on the whole
// training part).
func perExample(c float64, perExample bool, n int) float64 {
	if perExample && n > 0 {
		return c / float64(n)
	}
	return c
}
