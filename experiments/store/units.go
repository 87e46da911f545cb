package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/internal/readlimit"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/trainers"
)

// Unit phases: a validation unit trains on part of a split's training set and
// scores the held-out rest (to choose hyperparameters); a test unit trains on
// the whole training set with the chosen ones and scores the test set.
const (
	PhaseValidate = "validate"
	PhaseTest     = "test"
)

// SchemaVersion is part of every unit key: bump it when a change to the code
// changes what a unit computes, so stale cached units are not reused.
// Version 2: the cutting-plane solver stops on the true gap and reports the
// true primal, and unit specs hold effective settings (defaults resolved).
const SchemaVersion = 2

// Spec identifies one training-and-evaluation run completely; its hash is
// the unit's key in the cache (see MarshalJSON for its encoding).
type Spec struct {
	Schema   int
	Dataset  string
	DataHash string
	Task     string
	Features config.UnitFeatures
	Trainer  string
	C        float64
	Seed     uint64
	Split    int
	// TrainFraction and ValidationFraction are the split's fractions.
	TrainFraction      float64
	ValidationFraction float64
	Phase              string
	// SegmentQuantile sets the semi-Markov maximum segment length (0: the
	// default).
	SegmentQuantile float64
	// SegmentLoss is the segmentation loss when it is not the paper's (nil).
	SegmentLoss *config.SegmentLoss
	// SplitKind is "fold" for by-fold splits, empty for random ones.
	SplitKind string
	// SplitHash fingerprints the unit's split when a split file gives it
	// (datasets.FileSplit.Hash), so that editing the split recomputes its
	// units.
	SplitHash string
	// Minimizer is the log-linear trainers' L-BFGS configuration
	// (trainers.LBFGSRevision), so that units trained with an earlier one
	// are recomputed, not reused; empty for every other trainer.
	Minimizer string
	// Curves has a test unit score the test set at every checkpoint of
	// its training (Config.Curves).
	Curves bool
	// Decoder is the model's MAP decoder when not the exact one
	// (Config.Decoder: "ilp").
	Decoder string
	// Params are the trainer's params as training uses them (the config
	// entry's, defaults resolved: TrainerSpec.resolved), without C, the
	// seed and the execution params. Their keys are the registry's, so a
	// trainer with a new param needs nothing here.
	Params trainers.Values
	// Execution are the params that do not change the result
	// (trainers.Param.Execution: threads). They reach the trainer but stay
	// out of the key, so changing them reuses the cached units.
	Execution trainers.Values
	// Label is the config entry's display name (TrainerSpec.Display). It
	// only names results, so it stays out of the key.
	Label string
}

// Threads is how many goroutines the unit's training may use (at least 1),
// which a scheduler reserves cores for.
func (u Spec) Threads() int {
	if n, ok := u.Execution[trainers.ParamThreads].(int); ok && n > 1 {
		return n
	}
	return 1
}

// Display is the name the unit's results go by: its label, or its trainer.
func (u Spec) Display() string {
	if u.Label != "" {
		return u.Label
	}
	return u.Trainer
}

// Hyperparams returns the hyperparameters that were set, as reported in
// runs.jsonl: C (for trainers that have one) and the trainer's
// hyperparameters (trainers.Param.Hyper) among the unit's params.
func (u Spec) Hyperparams() map[string]float64 {
	p := map[string]float64{}
	if u.C != 0 {
		p[trainers.ParamC] = u.C
	}
	spec, err := trainers.SpecOf(u.Trainer)
	if err != nil {
		return p
	}
	for _, q := range spec.Params {
		if x, ok := u.Params[q.Key]; ok && q.Hyper {
			if f, numeric := asFloat(x); numeric {
				p[q.Key] = f
			}
		}
	}
	return p
}

// Settings returns the trainer's text hyperparameters among the unit's
// params that are not at their defaults (trainers.Spec.Settings: slack
// rescaling, MPM prediction), as reported in runs.jsonl; nil for the
// trainer's default method.
func (u Spec) Settings() map[string]string {
	spec, err := trainers.SpecOf(u.Trainer)
	if err != nil {
		return nil
	}
	return spec.Settings(u.Params)
}

// TrainerParams returns the params of the unit's trainer: the unit's
// params and execution params, with the unit's C and, as the seed, the
// experiment's seed plus the split.
func (u Spec) TrainerParams() (trainers.Values, error) {
	spec, err := trainers.SpecOf(u.Trainer)
	if err != nil {
		return nil, err
	}
	v := make(trainers.Values, len(u.Params)+len(u.Execution)+2)
	maps.Copy(v, u.Params)
	maps.Copy(v, u.Execution)
	if _, ok := spec.Param(trainers.ParamC); ok && u.C != 0 {
		v[trainers.ParamC] = u.C
	}
	if _, ok := spec.Param(trainers.ParamSeed); ok {
		v[trainers.ParamSeed] = u.Seed + uint64(u.Split)
	}
	return v, nil
}

// asFloat converts a numeric param value to float64.
func asFloat(x any) (float64, bool) {
	switch v := reflect.ValueOf(x); v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}

// Key returns the first 16 hex digits of the SHA-256 of the spec's JSON
// (MarshalJSON writes its members in a fixed order, so the encoding is
// canonical).
func (u Spec) Key() string {
	b, err := json.Marshal(u)
	if err != nil {
		panic(err) // plain values (params are numbers, bools and strings) always marshal
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Result is what a finished unit stores.
type Result struct {
	Key       string `json:"key"`
	Spec      Spec   `json:"spec"`
	TrainSize int    `json:"train_size"`
	EvalSize  int    `json:"eval_size"`
	// Metrics are the evaluation part's scores by metric name (the unit's
	// task's, metrics.ForTask). Files written before metrics were data
	// hold them as token_error, span_f1 and segment_error, which
	// Decode reads into this map.
	Metrics      map[string]float64 `json:"metrics"`
	TrainSeconds float64            `json:"train_seconds"`
	// CPUSeconds is the training thread's CPU time (0: not measured).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// PeakMiB is the peak memory the Go runtime held while the unit trained
	// (process-wide; one unit's own under --workers 1; see cputime.Timing).
	PeakMiB     float64 `json:"peak_mib,omitempty"`
	Iterations  int     `json:"iterations"`
	Constraints int     `json:"constraints"`
	Dropped     int     `json:"dropped,omitempty"` // n-slack constraints dropped as idle
	Primal      float64 `json:"primal"`
	Dual        float64 `json:"dual"`
	Gap         float64 `json:"gap"`
	Converged   bool    `json:"converged"`
	// Cutting-plane units: the working-set figures beside the true ones
	// above, whether the true primal's slacks are exact, and oracle calls.
	WorkingPrimal float64 `json:"working_primal,omitempty"`
	WorkingGap    float64 `json:"working_gap,omitempty"`
	PrimalExact   bool    `json:"primal_exact,omitempty"`
	OracleCalls   int     `json:"oracle_calls,omitempty"`
	Version       string  `json:"version,omitempty"`
	// Segmentation only: the maximum segment length chosen from the training
	// data, and how many true segments exceed it (kept in training, never
	// predictable at test time).
	MaxSegmentLength  int `json:"max_segment_length,omitempty"`
	LongTrainSegments int `json:"long_train_segments,omitempty"`
	LongEvalSegments  int `json:"long_eval_segments,omitempty"`
	// Outcomes are the per-sentence results behind the metrics, kept for
	// test units of fixed splits (McNemar's test, the paired bootstrap).
	Outcomes *report.Outcomes `json:"outcomes,omitempty"`
	// Curve is the learning curve of a unit with Spec.Curves: every
	// checkpoint of its training, scored on the test set.
	Curve []report.CurvePoint `json:"curve,omitempty"`
	// Checksum is the SHA-256 of the file's other members (see
	// contentChecksum); files written before it existed have none.
	Checksum string `json:"checksum,omitempty"`
}

// Cache stores one JSON file per finished unit, written atomically
// (temporary file, fsync, rename), so a crash never leaves a torn result.
// Each file carries a checksum of its content, so a file edited by hand (or
// damaged) is detected and recomputed rather than reported.
type Cache struct{ Dir string }

func (c Cache) Path(key string) string { return filepath.Join(c.Dir, key+".json") }

// Preflight makes sure units can be saved before anything trains: the
// directory exists (is not a file) and a file can be created in it.
func (c Cache) Preflight() error {
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("cannot keep finished units in %s: %w", c.Dir, err)
	}
	f, err := os.CreateTemp(c.Dir, ".probe-*")
	if err != nil {
		return fmt.Errorf("cannot save units in %s: %w", c.Dir, err)
	}
	name := f.Name()
	err = f.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("cannot save units in %s: %w", c.Dir, err)
	}
	return nil
}

// ErrNoUnit reports that a unit has no cache file (the ordinary case of a
// unit not yet computed, as opposed to an invalid file).
var ErrNoUnit = errors.New("not cached")

// ErrNoChecksum reports a unit file without its checksum. Its schema, key
// and metric ranges may all be valid, but nothing shows that its numbers
// were not edited (removing the checksum is the one edit a checksum
// cannot catch), so it is not trusted: the unit is computed again.
var ErrNoChecksum = errors.New("has no checksum, so an edit cannot be ruled out")

// Load returns the cached result of key. It fails with ErrNoUnit when there
// is no file, and with a reason naming what is wrong when the file exists
// but cannot be trusted (see Result.validate), ErrNoChecksum among
// them. The middle result is always false: a file without a checksum is
// an error here.
func (c Cache) Load(key string) (Result, bool, error) {
	b, err := ReadFile(c.Path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return Result{}, false, ErrNoUnit
	}
	if err != nil {
		return Result{}, false, err
	}
	res, unsummed, err := Decode(b, key)
	if err == nil && unsummed {
		return Result{}, false, ErrNoChecksum
	}
	return res, false, err
}

// requiredFields are the members every unit file must have, non-null: a
// missing or null metric would otherwise decode as 0 (a perfect score).
var requiredFields = []string{"key", "spec", "train_size", "eval_size", "train_seconds"}

// Decode parses and validates a unit file's content for key.
func Decode(b []byte, key string) (res Result, unsummed bool, err error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return Result{}, false, fmt.Errorf("does not parse: %w", err)
	}
	for _, name := range requiredFields {
		if v, ok := fields[name]; !ok || string(v) == "null" {
			return Result{}, false, fmt.Errorf("%q is missing or null", name)
		}
	}
	if err := json.Unmarshal(b, &res); err != nil {
		return Result{}, false, fmt.Errorf("does not decode: %w", err)
	}
	if err := res.legacyMetrics(fields); err != nil {
		return Result{}, false, err
	}
	switch want, err := contentChecksum(fields); {
	case err != nil:
		return Result{}, false, err
	case res.Checksum == "":
		unsummed = true
	case res.Checksum != want:
		return Result{}, false, errors.New("checksum does not match the content (edited or damaged)")
	}
	if err := res.validate(key); err != nil {
		return Result{}, false, err
	}
	return res, unsummed, nil
}

// legacyMetrics reads the metric fields of a unit file from before
// metrics were data (token_error and span_f1, required then, and
// segment_error) into res.Metrics, under the names the unit's task gives
// them. A file of either kind must have its metrics.
func (res *Result) legacyMetrics(fields map[string]json.RawMessage) error {
	if _, ok := fields["metrics"]; ok {
		if len(res.Metrics) == 0 {
			return errors.New(`"metrics" is empty`)
		}
		return nil
	}
	legacy := metrics.ForTask(res.Spec.Task).Legacy
	for _, name := range []string{metrics.TokenError, metrics.SpanF1, metrics.SegmentError} {
		raw, ok := fields[name]
		if (!ok || string(raw) == "null") && name != metrics.SegmentError {
			return fmt.Errorf("%q is missing or null", name)
		}
		if !ok || legacy[name] == "" {
			continue
		}
		var v float64
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if res.Metrics == nil {
			res.Metrics = map[string]float64{}
		}
		res.Metrics[legacy[name]] = v
	}
	return nil
}

// validate checks what a checksum cannot: that the unit is the one asked
// for, of the current schema, and that its metrics are possible values.
func (r Result) validate(key string) error {
	switch {
	case r.Key != key:
		return fmt.Errorf("key %q, want %q", r.Key, key)
	case r.Spec.Schema != SchemaVersion:
		return fmt.Errorf("schema %d, current is %d", r.Spec.Schema, SchemaVersion)
	case r.Spec.Key() != key:
		return errors.New("its spec does not hash to its key")
	case r.TrainSize <= 0 || r.EvalSize <= 0:
		return fmt.Errorf("train_size %d, eval_size %d: both must be positive", r.TrainSize, r.EvalSize)
	}
	for _, m := range []struct {
		name     string
		v        float64
		min, max float64
	}{
		{"train_seconds", r.TrainSeconds, 0, math.Inf(1)},
		{"primal", r.Primal, math.Inf(-1), math.Inf(1)},
		{"dual", r.Dual, math.Inf(-1), math.Inf(1)},
		{"gap", r.Gap, math.Inf(-1), math.Inf(1)},
	} {
		if math.IsNaN(m.v) || math.IsInf(m.v, 0) || m.v < m.min || m.v > m.max {
			return fmt.Errorf("%s = %v is outside [%v, %v]", m.name, m.v, m.min, m.max)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.Metrics)) {
		v := r.Metrics[name]
		d, ok := metrics.Lookup(name)
		switch {
		case !ok:
			return fmt.Errorf("unknown metric %q", name)
		case math.IsNaN(v) || math.IsInf(v, 0) || (d.Unit == "%" && (v < 0 || v > 100)):
			return fmt.Errorf("%s = %v is not a percentage", name, v)
		}
	}
	if r.Outcomes != nil {
		if err := r.Outcomes.Check(); err != nil {
			return err
		}
		if len(r.Outcomes.Tokens) != r.EvalSize {
			return fmt.Errorf("outcomes of %d sentences, eval_size %d", len(r.Outcomes.Tokens), r.EvalSize)
		}
	}
	return nil
}

// contentChecksum hashes a unit file's members other than "checksum" in a
// canonical form (sorted keys, compact values), so it covers exactly what
// the file says, whatever fields later versions add to Result.
func contentChecksum(fields map[string]json.RawMessage) (string, error) {
	rest := maps.Clone(fields)
	delete(rest, "checksum")
	b, err := json.Marshal(rest)
	if err != nil {
		return "", fmt.Errorf("canonical form: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Store writes r with its checksum.
func (c Cache) Store(r Result) error {
	b, err := Encode(r)
	if err != nil {
		return err
	}
	return writeFileAtomic(c.Path(r.Key), b)
}

// Encode returns r's file content, checksum included.
func Encode(r Result) ([]byte, error) {
	r.Checksum = ""
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	if r.Checksum, err = contentChecksum(fields); err != nil {
		return nil, err
	}
	b, err = json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ReadFile reads a unit file, bounded (a unit file is under 1 MiB).
func ReadFile(path string) ([]byte, error) {
	return readlimit.ReadFile(context.Background(), path, readlimit.UnitBytes, "unit file")
}

// writeFileAtomic is the shared atomic writer (files 0644).
func writeFileAtomic(path string, data []byte) error { return atomicfile.WriteFile(path, data) }
