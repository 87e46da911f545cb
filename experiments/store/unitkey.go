package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/trainers"
)

// A unit's key hashes its spec's JSON, so the JSON's bytes are part of
// every stored result: MarshalJSON writes the members schema 2 has always
// written, in the same order and with the same omissions, and puts the
// Hyperparams of trainers added since after them, sorted. So a trainer with a
// new param key changes no existing key and needs no change here.
//
// Two lists keep the order of the params that unit specs held as fields
// before they became one map. They record history, not the registry: a new
// param key goes in neither. (Functions, not variables: no mutable global
// state.)

// keyedAlways are written after C even when absent (as 0).
func keyedAlways() []string { return []string{"epsilon", "qp_tolerance", "max_iterations"} }

// keyedBeforeMinimizer are written after split_hash, when present.
func keyedBeforeMinimizer() []string {
	return []string{"epochs", "k", "average", "beta", "loss_scale", "rescaling", "solver", "drop_idle", "criterion", "C_per_example"}
}

// member is one member of a spec's JSON object.
type member struct {
	key   string
	value any
}

// members lists the spec's JSON members in key order.
func (u Spec) members() []member {
	m := []member{
		{"schema", u.Schema}, {"dataset", u.Dataset}, {"data_hash", u.DataHash}, {"task", u.Task},
		{"features", u.Features}, {"trainer", u.Trainer}, {"C", u.C},
	}
	for _, k := range keyedAlways() {
		x, ok := u.Params[k]
		if !ok {
			x = 0
		}
		m = append(m, member{k, x})
	}
	m = append(m, member{"seed", u.Seed}, member{"split", u.Split}, member{"train_fraction", u.TrainFraction},
		member{"validation_fraction", u.ValidationFraction}, member{"phase", u.Phase})
	optional := func(key string, x any, set bool) {
		if set {
			m = append(m, member{key, x})
		}
	}
	optional("segment_quantile", u.SegmentQuantile, u.SegmentQuantile != 0)
	optional("segment_loss", u.SegmentLoss, u.SegmentLoss != nil)
	optional("split_kind", u.SplitKind, u.SplitKind != "")
	optional("split_hash", u.SplitHash, u.SplitHash != "")
	for _, k := range keyedBeforeMinimizer() {
		x, ok := u.Params[k]
		optional(k, x, ok)
	}
	optional("minimizer", u.Minimizer, u.Minimizer != "")
	optional("curves", u.Curves, u.Curves)
	optional("decoder", u.Decoder, u.Decoder != "")
	for _, k := range slices.Sorted(maps.Keys(u.Params)) {
		if !slices.Contains(keyedAlways(), k) && !slices.Contains(keyedBeforeMinimizer(), k) {
			m = append(m, member{k, u.Params[k]})
		}
	}
	return m
}

// MarshalJSON writes the spec as its key hashes it (see members).
func (u Spec) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range u.members() {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, fmt.Errorf("unit spec %s: %w", m.key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a spec MarshalJSON wrote: the members it knows, and
// the trainer's params, each as its declared kind. A member that is
// neither is an error, so a stored spec that no longer describes a unit of
// this code is not mistaken for one.
func (u *Spec) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*u = Spec{}
	fields := map[string]any{
		"schema": &u.Schema, "dataset": &u.Dataset, "data_hash": &u.DataHash, "task": &u.Task,
		"features": &u.Features, "trainer": &u.Trainer, "C": &u.C, "seed": &u.Seed, "split": &u.Split,
		"train_fraction": &u.TrainFraction, "validation_fraction": &u.ValidationFraction, "phase": &u.Phase,
		"segment_quantile": &u.SegmentQuantile, "segment_loss": &u.SegmentLoss, "split_kind": &u.SplitKind,
		"split_hash": &u.SplitHash, "minimizer": &u.Minimizer, "curves": &u.Curves, "decoder": &u.Decoder,
	}
	for k, dst := range fields {
		if msg, ok := raw[k]; ok {
			if err := json.Unmarshal(msg, dst); err != nil {
				return fmt.Errorf("spec member %q: %w", k, err)
			}
			delete(raw, k)
		}
	}
	spec, err := trainers.SpecOf(u.Trainer)
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		p, ok := spec.Param(k)
		if !ok || p.Execution || p.Key == trainers.ParamC || p.Key == trainers.ParamSeed {
			var zero float64
			if slices.Contains(keyedAlways(), k) && json.Unmarshal(raw[k], &zero) == nil && zero == 0 {
				continue // written for every trainer
			}
			return fmt.Errorf("spec member %q is not a param of trainer %q", k, u.Trainer)
		}
		x := reflect.New(reflect.TypeOf(config.ZeroOfKind(p.Kind)))
		if err := json.Unmarshal(raw[k], x.Interface()); err != nil {
			return fmt.Errorf("spec member %q: %w", k, err)
		}
		if slices.Contains(keyedAlways(), k) && x.Elem().IsZero() {
			continue // written as 0 when absent
		}
		if u.Params == nil {
			u.Params = trainers.Values{}
		}
		u.Params[k] = x.Elem().Interface()
	}
	return nil
}
