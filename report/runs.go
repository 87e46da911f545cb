package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/maxmargin/repro/metrics"
)

// Run is one final test evaluation: one (dataset, task, trainer, split,
// train fraction) after hyperparameter selection. A runs.jsonl file holds
// one Run per line as a compact JSON object.
type Run struct {
	Key           string             `json:"key"`                // stable unit key (hash)
	Dataset       string             `json:"dataset"`            // e.g. "cora"
	Task          string             `json:"task"`               // "sequence", "segmentation", "parsing"
	Trainer       string             `json:"trainer"`            // e.g. "margin", "slack", "approx-slack", "poslearn", or a config's label
	Method        string             `json:"method,omitempty"`   // the training method when Trainer is a label, e.g. "entropy-margin"
	Params        map[string]float64 `json:"params"`             // selected hyperparameters, e.g. {"C": 1}
	Settings      map[string]string  `json:"settings,omitempty"` // text hyperparameters off the trainer's defaults, e.g. {"rescaling": "slack"} (trainers.Spec.Settings)
	Selection     []Candidate        `json:"selection"`          // the grid and its validation scores
	Split         int                `json:"split"`              // split index; runs are paired across trainers by it
	TrainFraction float64            `json:"train_fraction"`     // fraction of the data used for training
	TrainSize     int                `json:"train_size"`         // number of training instances
	TestSize      int                `json:"test_size"`          // number of test instances
	// Metrics are the test scores by metric name (package metrics
	// declares them, and each task's), e.g. {"token_error": 7.2,
	// "span_f1": 83.2}. Records from before metrics were data hold them as
	// top-level fields, which ReadRuns reads into this map.
	Metrics       map[string]float64 `json:"metrics"`
	TrainSeconds  float64            `json:"train_seconds"`            // wall-clock training time of the final model
	CPUSeconds    float64            `json:"cpu_seconds,omitempty"`    // CPU time (user+system) of that training; 0 in runs from before it was recorded
	PeakMiB       float64            `json:"peak_mib,omitempty"`       // peak memory the Go runtime held from the OS while training (mapped less released; process-wide, per unit under --workers 1)
	Iterations    int                `json:"iterations"`               // trainer iterations
	Constraints   int                `json:"constraints"`              // constraints in the final working set
	Dropped       int                `json:"dropped,omitempty"`        // n-slack constraints dropped as idle on the way (drop_idle)
	Primal        float64            `json:"primal"`                   // final primal objective
	Dual          float64            `json:"dual"`                     // final dual objective
	Gap           float64            `json:"gap"`                      // final duality gap
	Converged     bool               `json:"converged,omitempty"`      // the trainer met its stopping rule (not its iteration cap)
	WorkingPrimal float64            `json:"working_primal,omitempty"` // cutting plane: primal over the working set only
	WorkingGap    float64            `json:"working_gap,omitempty"`    // cutting plane: WorkingPrimal − Dual
	PrimalExact   bool               `json:"primal_exact,omitempty"`   // cutting plane: Primal's slacks came from an exact oracle
	OracleCalls   int                `json:"oracle_calls,omitempty"`   // cutting plane: separation oracle calls
	Version       string             `json:"version,omitempty"`        // VCS revision of the code that produced it
	// Outcomes holds per-sentence results on the test set, for McNemar's
	// test and the paired bootstrap; only runs on fixed splits have them.
	Outcomes *Outcomes `json:"outcomes,omitempty"`
	// Curve is the learning curve of the final training: its checkpoints,
	// each scored on the test set, in increasing iteration. Only runs of a
	// config with curves: true have one; it is for figures against
	// XCPUSeconds and never chooses anything.
	Curve []CurvePoint `json:"curve,omitempty"`
}

// CurvePoint is one checkpoint of a training run: the weights the trainer
// would have returned had it stopped there, scored on the test set.
type CurvePoint struct {
	Iteration int `json:"iteration"` // epoch, cutting-plane iteration or L-BFGS major iteration
	// CPUSeconds is the training's CPU time up to the checkpoint, the
	// scoring of earlier checkpoints excluded.
	CPUSeconds float64            `json:"cpu_seconds"`
	Metrics    map[string]float64 `json:"metrics"` // as Run.Metrics
}

// Candidate is one point of a hyperparameter grid with its validation scores.
type Candidate struct {
	Params       map[string]float64 `json:"params"`
	Metrics      map[string]float64 `json:"metrics"`       // validation scores, as Run.Metrics
	TrainSeconds float64            `json:"train_seconds"` // training time for this candidate
}

// Metric returns the run's value of the metric name and whether it has
// one.
func (r *Run) Metric(name string) (float64, bool) {
	v, ok := r.Metrics[name]
	return v, ok
}

// legacyMetrics are the metric fields of records from before metrics were
// data, at top level, in candidates and in curve points.
type legacyMetrics struct {
	TokenError   *float64 `json:"token_error,omitempty"`
	SpanF1       *float64 `json:"span_f1,omitempty"`
	SegmentError *float64 `json:"segment_error,omitempty"`
}

// into adds the old fields to m under the names task gives them
// (metrics.TaskMetrics.Legacy), dropping those it maps to "".
func (l legacyMetrics) into(m map[string]float64, task string) map[string]float64 {
	legacy := metrics.ForTask(task).Legacy
	for _, f := range []struct {
		name string
		v    *float64
	}{{metrics.TokenError, l.TokenError}, {metrics.SpanF1, l.SpanF1}, {metrics.SegmentError, l.SegmentError}} {
		if f.v == nil || legacy[f.name] == "" {
			continue
		}
		if m == nil {
			m = map[string]float64{}
		}
		m[legacy[f.name]] = *f.v
	}
	return m
}

// runFields is Run without its methods, so that UnmarshalJSON can decode
// into it.
type runFields Run

// UnmarshalJSON decodes a run record, of this code or of code from before
// metrics were data (token_error, span_f1 and segment_error fields), and
// rejects fields a record of neither has.
func (r *Run) UnmarshalJSON(b []byte) error {
	var v struct {
		runFields
		legacyMetrics
		Selection []struct {
			Candidate
			legacyMetrics
		} `json:"selection"`
		Curve []struct {
			CurvePoint
			legacyMetrics
		} `json:"curve,omitempty"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*r = Run(v.runFields)
	r.Metrics = v.legacyMetrics.into(r.Metrics, r.Task)
	r.Selection, r.Curve = nil, nil
	for _, c := range v.Selection {
		c.Metrics = c.legacyMetrics.into(c.Metrics, r.Task)
		r.Selection = append(r.Selection, c.Candidate)
	}
	for _, p := range v.Curve {
		p.Metrics = p.legacyMetrics.into(p.Metrics, r.Task)
		r.Curve = append(r.Curve, p.CurvePoint)
	}
	return nil
}

// LineError reports a problem with one line of a runs file. It is returned
// (or listed as a warning) by [ReadRuns].
type LineError struct {
	Name string // file name as given to ReadRuns
	Line int    // 1-based line number
	Err  error
}

// Error implements error as "name:line: message".
func (e *LineError) Error() string {
	return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err)
}

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// WriteRuns writes runs to w as one compact JSON object per line, in the
// given order. Map keys (Params) are written in sorted order, so equal runs
// give equal bytes.
func WriteRuns(w io.Writer, runs []Run) error {
	bw := bufio.NewWriter(w)
	for i := range runs {
		b, err := json.Marshal(&runs[i])
		if err != nil {
			return fmt.Errorf("report: encoding run %d (key %q): %w", i, runs[i].Key, err)
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return fmt.Errorf("report: writing runs: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: writing runs: %w", err)
	}
	return nil
}

// ReadRuns reads runs written by [WriteRuns] from r; name is used only in
// messages. Blank lines are ignored. Fields not in [Run] are an error.
//
// A last line that is both unterminated (no final newline) and unparsable is
// taken to be torn by a writer that was interrupted: it is skipped and
// reported in warnings as a *[LineError]. Any other bad line is returned as
// a *LineError naming the file and line, and no runs are returned.
func ReadRuns(r io.Reader, name string) (runs []Run, warnings []error, err error) {
	br := bufio.NewReader(r)
	for lineNo := 1; ; lineNo++ {
		line, readErr := br.ReadBytes('\n')
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return nil, nil, &LineError{Name: name, Line: lineNo, Err: fmt.Errorf("reading: %w", readErr)}
		}
		terminated := readErr == nil
		if len(bytes.TrimSpace(line)) > 0 {
			run, err := decodeRun(line)
			switch {
			case err == nil:
				runs = append(runs, run)
			case !terminated:
				warnings = append(warnings, &LineError{Name: name, Line: lineNo,
					Err: fmt.Errorf("skipping torn last line: %w", err)})
			default:
				return nil, nil, &LineError{Name: name, Line: lineNo, Err: err}
			}
		}
		if !terminated {
			return runs, warnings, nil
		}
	}
}

// decodeRun decodes exactly one JSON object, rejecting unknown fields and
// trailing data.
func decodeRun(line []byte) (Run, error) {
	var run Run
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&run); err != nil {
		return Run{}, fmt.Errorf("decoding run: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Run{}, errors.New("decoding run: trailing data after JSON object")
	}
	return run, nil
}

// ReadRunsFile reads the runs file at path with [ReadRuns].
func ReadRunsFile(path string) ([]Run, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	return ReadRuns(f, path)
}
