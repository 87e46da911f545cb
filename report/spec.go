package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/maxmargin/repro/metrics"
)

// Quantities a [FigureSpec] can plot.
const (
	XTrainFraction = "train_fraction" // training fraction, drawn in percent
	// XBeta puts each trainer entry's inverse temperature β (Run.Params
	// "beta", fixed per entry) on a logarithmic axis: one point per entry,
	// one line per method (Run.Method), as in Pletscher et al.'s Figure 4.
	XBeta = "beta"
	// XDataset puts the figure's datasets (FigureSpec.Datasets, e.g. one
	// per feature set of an ablation) side by side at x = 1..k, in order,
	// each at its one training fraction.
	XDataset = "dataset"
	// XCPUSeconds draws learning curves: Y at every checkpoint of the
	// final training (Run.Curve) against the training CPU time so far,
	// one line per trainer, as Crammer et al.'s Figure 2 does. Y is then
	// a metric or YAccuracy.
	XCPUSeconds = "cpu_seconds"
	// Y is the name of any metric (package metrics), e.g. "token_error",
	// "span_f1" or "segment_error", which every run of the figure must
	// have; or one of the following.
	//
	// YAccuracy is 100 − token error, percent: the per-token accuracy
	// Crammer et al. plot for OCR.
	YAccuracy = "accuracy"
	// YTrainSeconds is the training time in seconds: CPU time when every
	// run of the figure has it (Run.CPUSeconds), wall-clock time
	// otherwise; the axis label says which.
	YTrainSeconds = "train_seconds"
	YCPUSeconds   = "cpu_seconds" // CPU training time, seconds; every run must have it
)

// FigureSpec describes one figure: Y against X for the runs of one dataset
// and task, one line per trainer (X = XTrainFraction) or per method
// (X = XBeta).
type FigureSpec struct {
	Name    string `json:"name"`    // file stem, e.g. "figure1"
	Dataset string `json:"dataset"` // e.g. "cora"
	// Task is e.g. "sequence". Empty means every task with runs on the
	// dataset: [ExpandFigures] makes one figure per task, named
	// NAME-TASK when there are several and NAME when there is one.
	Task string `json:"task,omitempty"`
	X    string `json:"x"` // XTrainFraction, XBeta, XDataset or XCPUSeconds
	// Datasets, for X = XDataset, lists the datasets in x order; Dataset
	// is then the first of them.
	Datasets []string `json:"datasets,omitempty"`
	Y        string   `json:"y"` // a metric's name, YAccuracy, YTrainSeconds or YCPUSeconds
	// LogX puts X on a logarithmic axis (X = XCPUSeconds only; XBeta's
	// axis is always logarithmic): learning curves span the seconds of an
	// online trainer and the minutes of a batch one.
	LogX bool `json:"log_x,omitempty"`
	// Baseline, if set, names a trainer whose runs are subtracted split by
	// split: each point is the mean and standard deviation over splits of
	// Y(trainer) − Y(baseline), so a pairing removes the split-to-split
	// variation the two share. The baseline itself is not drawn.
	Baseline string `json:"baseline,omitempty"`
	// Z, if set, makes the figure a contour plot of Z over the plane of
	// two trainer params (Pletscher et al.'s Figure 3): X must be XBeta
	// and Y YParamC, every trainer entry with a beta one point (β, C), and
	// Z is what Y otherwise is (a metric, YAccuracy, YTrainSeconds or
	// YCPUSeconds). The points must form a complete grid of one method.
	Z string `json:"z,omitempty"`
	// Title is optional; the default names the dataset, task and Y.
	Title string `json:"title,omitempty"`
	// Trainers, if set, draws only the runs of these trainers (by display
	// name: Run.Trainer) and of the baseline, e.g. one panel of MAP and
	// one of MPM prediction over the same config; empty: every trainer.
	Trainers []string `json:"trainers,omitempty"`
}

// Validate reports whether f names a safe file stem, a dataset and known
// quantities.
func (f FigureSpec) Validate() error {
	if err := validStem(f.Name); err != nil {
		return fmt.Errorf("report: figure %q: %w", f.Name, err)
	}
	if f.Dataset == "" {
		return fmt.Errorf("report: figure %q: dataset must be set", f.Name)
	}
	if f.Z != "" || f.Y == YParamC {
		return f.validateContour()
	}
	switch {
	case f.X != XTrainFraction && f.X != XBeta && f.X != XDataset && f.X != XCPUSeconds:
		return fmt.Errorf("report: figure %q: unknown x %q (want %q, %q, %q or %q)", f.Name, f.X, XTrainFraction, XBeta, XDataset, XCPUSeconds)
	case f.X == XCPUSeconds && (f.Y == YTrainSeconds || f.Y == YCPUSeconds):
		return fmt.Errorf("report: figure %q: x %q draws learning curves, whose y is a metric (%s) or %q, not a time", f.Name, f.X, strings.Join(metrics.Names(), ", "), YAccuracy)
	case f.X == XCPUSeconds && f.Baseline != "":
		return fmt.Errorf("report: figure %q: x %q draws learning curves, which take no baseline", f.Name, f.X)
	case f.LogX && f.X != XCPUSeconds:
		return fmt.Errorf("report: figure %q: log_x is for x %q (x %q has its own axis)", f.Name, XCPUSeconds, f.X)
	case f.X == XDataset && (len(f.Datasets) < 2 || f.Datasets[0] != f.Dataset):
		return fmt.Errorf("report: figure %q: x %q needs at least two datasets, the first of them as dataset", f.Name, f.X)
	case f.X != XDataset && len(f.Datasets) > 0:
		return fmt.Errorf("report: figure %q: datasets are for x %q", f.Name, XDataset)
	}
	for i, d := range f.Datasets {
		if slices.Contains(f.Datasets[:i], d) {
			return fmt.Errorf("report: figure %q: dataset %q listed twice", f.Name, d)
		}
	}
	for i, t := range f.Trainers {
		switch {
		case t == "":
			return fmt.Errorf("report: figure %q: trainers[%d] is empty", f.Name, i)
		case slices.Contains(f.Trainers[:i], t):
			return fmt.Errorf("report: figure %q: trainer %q listed twice", f.Name, t)
		case t == f.Baseline:
			return fmt.Errorf("report: figure %q: trainer %q is the baseline, which is subtracted, not drawn", f.Name, t)
		}
	}
	if _, ok := yQuantity(f.Y); !ok {
		return fmt.Errorf("report: figure %q: unknown y %q (want a metric, %s, or %q, %q or %q)",
			f.Name, f.Y, strings.Join(metrics.Names(), ", "), YAccuracy, YTrainSeconds, YCPUSeconds)
	}
	return nil
}

// validateContour checks a contour figure (Z set), or a Y of YParamC
// without Z.
func (f FigureSpec) validateContour() error {
	switch {
	case f.Z == "":
		return fmt.Errorf("report: figure %q: y %q is the second axis of a contour figure: set z (the quantity drawn over beta and C)", f.Name, f.Y)
	case f.X != XBeta || f.Y != YParamC:
		return fmt.Errorf("report: figure %q: a contour (z %q) is drawn over x %q and y %q, not x %q and y %q", f.Name, f.Z, XBeta, YParamC, f.X, f.Y)
	case f.Baseline != "" || f.LogX || len(f.Datasets) > 0:
		return fmt.Errorf("report: figure %q: a contour (z %q) takes no baseline, log_x or datasets", f.Name, f.Z)
	}
	if _, ok := yQuantity(f.Z); !ok {
		return fmt.Errorf("report: figure %q: unknown z %q (want a metric, %s, or %q, %q or %q)",
			f.Name, f.Z, strings.Join(metrics.Names(), ", "), YAccuracy, YTrainSeconds, YCPUSeconds)
	}
	return nil
}

// selected returns the runs f draws from: those of its Trainers and its
// baseline when it lists trainers, else all of them.
func (f FigureSpec) selected(runs []Run) []Run {
	if len(f.Trainers) == 0 {
		return runs
	}
	var out []Run
	for _, r := range runs {
		if r.Trainer == f.Baseline || slices.Contains(f.Trainers, r.Trainer) {
			out = append(out, r)
		}
	}
	return out
}

// covers reports whether the figure draws runs of dataset.
func (f FigureSpec) covers(dataset string) bool {
	if f.X == XDataset {
		return slices.Contains(f.Datasets, dataset)
	}
	return dataset == f.Dataset
}

// title is the figure title: f.Title, or "dataset/task: quantity".
func (f FigureSpec) title() string {
	if f.Title != "" {
		return f.Title
	}
	if f.Z != "" {
		q, _ := yQuantity(f.Z)
		return fmt.Sprintf("%s/%s: %s over β and C", f.Dataset, f.Task, q.name)
	}
	q, _ := yQuantity(f.Y)
	if f.Baseline != "" {
		return fmt.Sprintf("%s/%s: %s minus %s's", f.Dataset, f.Task, q.name, f.Baseline)
	}
	if f.X == XCPUSeconds {
		return fmt.Sprintf("%s/%s: %s against training time", f.Dataset, f.Task, q.name)
	}
	return fmt.Sprintf("%s/%s: %s", f.Dataset, f.Task, q.name)
}

// yLabel is the Y axis label for quantity q: q's label, or, against a
// baseline, the difference in the same unit.
func (f FigureSpec) yLabel(q quantity) string {
	if f.Baseline == "" {
		return q.label
	}
	unit := "points"
	if q.seconds {
		unit = "s"
	}
	return fmt.Sprintf("%s − %s (%s)", q.short, f.Baseline, unit)
}

// validStem accepts names made of letters, digits, '-', '_' and '.', not
// starting with '.', so that a stem can neither leave the output directory
// nor hide a file, and needs no escaping in a URL.
func validStem(s string) error {
	if s == "" {
		return errors.New("empty name")
	}
	if s[0] == '.' {
		return errors.New("name starts with '.'")
	}
	for _, r := range s {
		ok := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
			r == '-' || r == '_' || r == '.'
		if !ok {
			return fmt.Errorf("name has character %q; use letters, digits, '-', '_' and '.'", r)
		}
	}
	return nil
}

// quantity is something a figure can put on its Y axis.
type quantity struct {
	name    string // for titles, e.g. "token error"
	label   string // axis label with units
	short   string // the quantity in a difference's axis label
	seconds bool   // a time, in seconds
	value   func(*Run) float64
}

// The training times a figure or table can show.
var (
	// wallTime is the time of runs that predate CPU times, labelled as it
	// always was.
	wallTime = quantity{"training time", "training time (s)", "training time", true,
		func(r *Run) float64 { return r.TrainSeconds }}
	// wallTimeNamed is the wall-clock time when some runs have CPU times
	// and others do not, so the label must say which it is.
	wallTimeNamed = quantity{"training time", "wall-clock time (s)", "wall-clock time", true,
		func(r *Run) float64 { return r.TrainSeconds }}
	cpuTime = quantity{"training time", "CPU time (s)", "CPU time", true,
		func(r *Run) float64 { return r.CPUSeconds }}
)

// yMetric returns the metric a FigureSpec.Y value draws, and whether the
// figure draws 100 minus it (YAccuracy); false if y is no metric.
func yMetric(y string) (name string, complement, ok bool) {
	if y == YAccuracy {
		return metrics.TokenError, true, true
	}
	_, ok = metrics.Lookup(y)
	return y, false, ok
}

// yQuantity returns the quantity named by a FigureSpec.Y value; for the
// times, the one to use when no run is known (see figureQuantity).
func yQuantity(y string) (quantity, bool) {
	switch y {
	case YAccuracy:
		return quantity{"accuracy", "accuracy (%)", "accuracy", false, func(r *Run) float64 { return 100 - r.Metrics[metrics.TokenError] }}, true
	case YTrainSeconds:
		return wallTime, true
	case YCPUSeconds:
		return cpuTime, true
	}
	d, ok := metrics.Lookup(y)
	if !ok {
		return quantity{}, false
	}
	return quantity{d.Label, label(y, true), d.Label, false, func(r *Run) float64 { return r.Metrics[y] }}, true
}

// figureQuantity is the Y quantity of f for the runs of its dataset and
// task: for YTrainSeconds, CPU time if every such run has it, else
// wall-clock time (labelled as such if some runs have CPU time); for
// YCPUSeconds, CPU time, and for a metric that metric, which every such
// run must have.
func figureQuantity(runs []Run, f FigureSpec) (quantity, error) {
	q, _ := yQuantity(f.Y)
	if name, _, ok := yMetric(f.Y); ok {
		return q, requireMetric(runs, f, name)
	}
	if !q.seconds {
		return q, nil
	}
	with, without := 0, 0
	for i := range runs {
		r := &runs[i]
		if !f.covers(r.Dataset) || r.Task != f.Task {
			continue
		}
		if r.CPUSeconds > 0 {
			with++
		} else {
			without++
		}
	}
	switch {
	case f.Y == YCPUSeconds && without > 0:
		return quantity{}, fmt.Errorf("report: figure %q: y %q, but %d of the %d runs of %s/%s have no CPU time (written by an older repro); use %q",
			f.Name, f.Y, without, with+without, f.Dataset, f.Task, YTrainSeconds)
	case with > 0 && without == 0:
		return cpuTime, nil
	case with > 0:
		return wallTimeNamed, nil
	}
	return q, nil
}

// requireMetric reports the runs of f's dataset and task that lack the
// metric name: a task that does not declare it, and runs written before
// repro recorded it; plotting them as 0 would look like a perfect score.
func requireMetric(runs []Run, f FigureSpec, name string) error {
	with, without := 0, 0
	for i := range runs {
		r := &runs[i]
		if !f.covers(r.Dataset) || r.Task != f.Task {
			continue
		}
		if _, ok := r.Metrics[name]; ok {
			with++
		} else {
			without++
		}
	}
	if without == 0 {
		return nil
	}
	d, _ := metrics.Lookup(name)
	return fmt.Errorf("report: figure %q: y %q, but %d of the %d runs of %s/%s have no %s "+
		"(their task does not report it, or they were written before it was recorded; rerun them)",
		f.Name, f.Y, without, with+without, f.Dataset, f.Task, d.Label)
}

// Spec is everything needed to render the report of a results directory
// besides its runs: the table layout and the figures. It is stored as
// report.json next to runs.jsonl ([WriteSpec], [ReadSpec]).
type Spec struct {
	// Title heads index.html; "" means "repro report: <directory name>".
	Title string `json:"title,omitempty"`
	// Trainers gives the column order of the table and the line order of
	// the figures (see [Options.Trainers]).
	Trainers []string `json:"trainers,omitempty"`
	// Comparisons are the paired t-tests reported under the table.
	Comparisons []Comparison `json:"comparisons,omitempty"`
	// TokenOnlyTasks is read from report.json files written before tasks
	// declared their metrics (package metrics), and ignored: a task's
	// declaration says which metrics its rows have.
	TokenOnlyTasks []string `json:"token_only_tasks,omitempty"`
	// Figures are drawn in order; their names must be distinct.
	Figures []FigureSpec `json:"figures,omitempty"`
	// Paper, if set, holds the numbers a paper reports; the report then
	// shows ours beside them (see [ComparePaper]).
	Paper *PaperReference `json:"paper,omitempty"`
	// Folds, if set, says that the splits' test parts are disjoint
	// (cross-validation folds), so that per-item tests may pool them
	// (see [Options.Folds]).
	Folds *Folds `json:"folds,omitempty"`
}

// Validate checks trainer names, comparisons, figures and the paper's
// values. Whether the trainers of a comparison have runs is checked later,
// by [Summarize]; paper values without runs are allowed (shown as "-").
func (s Spec) Validate() error {
	for i, tr := range s.Trainers {
		if tr == "" {
			return errors.New("report: spec: empty trainer name")
		}
		if slices.Contains(s.Trainers[:i], tr) {
			return fmt.Errorf("report: spec: trainer %q listed twice", tr)
		}
	}
	for _, c := range s.Comparisons {
		if c.A == "" || c.B == "" {
			return fmt.Errorf("report: spec: comparison %q vs %q: empty trainer name", c.A, c.B)
		}
		if c.A == c.B {
			return fmt.Errorf("report: spec: comparison of %q with itself", c.A)
		}
	}
	for i, f := range s.Figures {
		if err := f.Validate(); err != nil {
			return err
		}
		for _, g := range s.Figures[:i] {
			if g.Name == f.Name {
				return fmt.Errorf("report: spec: two figures named %q", f.Name)
			}
		}
	}
	if s.Paper != nil {
		if err := s.Paper.Validate(); err != nil {
			return err
		}
	}
	if s.Folds != nil {
		if err := s.Folds.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// options are the Summarize options the spec asks for.
func (s Spec) options() Options {
	return Options{Trainers: s.Trainers, Comparisons: s.Comparisons, Folds: s.Folds}
}

// WriteSpec validates s and writes it atomically to path as indented JSON.
func WriteSpec(path string, s Spec) error {
	if err := s.Validate(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("report: encoding spec: %w", err)
	}
	return writeFileAtomic(path, append(b, '\n'))
}

// ReadSpec reads and validates a spec written by [WriteSpec]. Unknown
// fields and trailing data are errors, so that a misspelt key is not
// silently ignored.
func ReadSpec(path string) (Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, fmt.Errorf("report: %w", err)
	}
	var s Spec
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Spec{}, fmt.Errorf("report: %s: %w", path, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Spec{}, fmt.Errorf("report: %s: trailing data after JSON object", path)
	}
	if err := s.Validate(); err != nil {
		return Spec{}, fmt.Errorf("%w (in %s)", err, path)
	}
	return s, nil
}

// BetaLine names the line of an x: beta figure that a run of method with
// params and settings lies on: the method, "without Δ" when its loss scale
// is 0 (Pletscher et al.'s β = 1 without the error term, the CRF, is
// another curve than ℓ_β with it), and its settings away from the
// trainer's defaults (Run.Settings: slack rescaling, MPM prediction), each
// another curve, e.g. "entropy-margin without Δ (predict=mpm)".
func BetaLine(method string, params map[string]float64, settings map[string]string) string {
	line := method
	if v, ok := params["loss_scale"]; ok && v == 0 {
		line += " without Δ"
	}
	if len(settings) == 0 {
		return line
	}
	parts := make([]string, 0, len(settings))
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		parts = append(parts, k+"="+settings[k])
	}
	return line + " (" + strings.Join(parts, ", ") + ")"
}
