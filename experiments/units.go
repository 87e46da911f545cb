package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/maxmargin/repro/internal/atomicfile"
	"os"
	"path/filepath"
)

// Unit phases: a validation unit trains on part of a split's training set and
// scores the held-out rest (to choose hyperparameters); a test unit trains on
// the whole training set with the chosen ones and scores the test set.
const (
	phaseValidate = "validate"
	phaseTest     = "test"
)

// schemaVersion is part of every unit key: bump it when a change to the code
// changes what a unit computes, so stale cached units are not reused.
const schemaVersion = 1

// unitSpec identifies one training-and-evaluation run completely; its hash is
// the unit's key in the cache.
type unitSpec struct {
	Schema             int         `json:"schema"`
	Dataset            string      `json:"dataset"`
	DataHash           string      `json:"data_hash"`
	Task               string      `json:"task"`
	Features           featureSpec `json:"features"`
	Trainer            string      `json:"trainer"`
	C                  float64     `json:"C"`
	Epsilon            float64     `json:"epsilon"`
	QPTolerance        float64     `json:"qp_tolerance"`
	MaxIterations      int         `json:"max_iterations"`
	Seed               uint64      `json:"seed"`
	Split              int         `json:"split"`
	TrainFraction      float64     `json:"train_fraction"`
	ValidationFraction float64     `json:"validation_fraction"`
	Phase              string      `json:"phase"`
	// SegmentQuantile sets the semi-Markov maximum segment length (0: the
	// default); omitted when zero so sequence-unit keys are unaffected.
	SegmentQuantile float64 `json:"segment_quantile,omitempty"`
	// SplitKind is "fold" for by-fold splits, empty for random ones.
	SplitKind string `json:"split_kind,omitempty"`
	// Settings of the online and log-linear trainers, omitted when unset.
	Epochs    int      `json:"epochs,omitempty"`
	K         int      `json:"k,omitempty"`
	Average   *bool    `json:"average,omitempty"`
	Beta      float64  `json:"beta,omitempty"`
	LossScale *float64 `json:"loss_scale,omitempty"`
	Rescaling string   `json:"rescaling,omitempty"`
	// Label is the config entry's display name (TrainerSpec.Display). It
	// only names results, so it stays out of the key.
	Label string `json:"-"`
}

// display is the name the unit's results go by: its label, or its trainer.
func (u unitSpec) display() string {
	if u.Label != "" {
		return u.Label
	}
	return u.Trainer
}

// params returns the hyperparameters that were set, as reported in
// runs.jsonl (C only for trainers that have one).
func (u unitSpec) params() map[string]float64 {
	p := map[string]float64{}
	set := func(name string, v float64) {
		if v != 0 {
			p[name] = v
		}
	}
	set("C", u.C)
	set("epochs", float64(u.Epochs))
	set("k", float64(u.K))
	set("beta", u.Beta)
	if u.LossScale != nil {
		p["loss_scale"] = *u.LossScale
	}
	return p
}

// featureSpec is FeatureSpec with defaults resolved. Kind and Degree are
// omitted for citation features, so those units keep their keys.
type featureSpec struct {
	Kind    string `json:"kind,omitempty"`
	Degree  int    `json:"degree,omitempty"`
	Window  int    `json:"window"`
	Affixes int    `json:"affixes"`
	Edges   bool   `json:"edges"`
}

// key returns the first 16 hex digits of the SHA-256 of the spec's JSON
// (struct fields marshal in a fixed order, so the encoding is canonical).
func (u unitSpec) key() string {
	b, err := json.Marshal(u)
	if err != nil {
		panic(err) // a struct of plain values always marshals
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// unitResult is what a finished unit stores.
type unitResult struct {
	Key          string   `json:"key"`
	Spec         unitSpec `json:"spec"`
	TrainSize    int      `json:"train_size"`
	EvalSize     int      `json:"eval_size"`
	TokenError   float64  `json:"token_error"`
	SpanF1       float64  `json:"span_f1"`
	TrainSeconds float64  `json:"train_seconds"`
	// CPUSeconds is the training thread's CPU time (0: not measured).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// SegmentError is Sarawagi & Gupta's section 4.3.2 error in percent
	// (segmentation units only; see metrics.Counts.SegmentError).
	SegmentError float64 `json:"segment_error,omitempty"`
	Iterations   int     `json:"iterations"`
	Constraints  int     `json:"constraints"`
	Primal       float64 `json:"primal"`
	Dual         float64 `json:"dual"`
	Gap          float64 `json:"gap"`
	Converged    bool    `json:"converged"`
	Version      string  `json:"version,omitempty"`
	// Segmentation only: the maximum segment length chosen from the training
	// data, and how many true segments exceed it (kept in training, never
	// predictable at test time).
	MaxSegmentLength  int `json:"max_segment_length,omitempty"`
	LongTrainSegments int `json:"long_train_segments,omitempty"`
	LongEvalSegments  int `json:"long_eval_segments,omitempty"`
}

// unitCache stores one JSON file per finished unit, written atomically
// (temporary file, fsync, rename), so a crash never leaves a torn result.
type unitCache struct{ dir string }

func (c unitCache) path(key string) string { return filepath.Join(c.dir, key+".json") }

// load returns the cached result of key, or ok=false if there is none. A
// file that does not parse (which the atomic write should make impossible)
// is treated as missing, so the unit is recomputed.
func (c unitCache) load(key string) (unitResult, bool) {
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return unitResult{}, false
	}
	var r unitResult
	if json.Unmarshal(b, &r) != nil || r.Key != key {
		return unitResult{}, false
	}
	return r, true
}

func (c unitCache) store(r unitResult) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(c.path(r.Key), append(b, '\n'))
}

// writeFileAtomic is the shared atomic writer (files 0644).
func writeFileAtomic(path string, data []byte) error { return atomicfile.WriteFile(path, data) }
