package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/trainers"
)

// paramFlags collects repeated --param KEY=VALUE flags.
type paramFlags []string

func (p *paramFlags) String() string { return strings.Join(*p, ",") }

func (p *paramFlags) Set(s string) error {
	if k, _, ok := strings.Cut(s, "="); !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", s)
	}
	*p = append(*p, s)
	return nil
}

// trainerValues turns --param KEY=VALUE flags into the trainer's params,
// each value parsed as the kind the trainer declares for its key (a key
// it does not have stays text, for trainers.Validate to name with the
// trainer's params).
func trainerValues(trainer string, params []string) (trainers.Values, error) {
	spec, err := trainers.SpecOf(trainer)
	if err != nil {
		return nil, err
	}
	v := trainers.Values{}
	for _, kv := range params {
		key, text, _ := strings.Cut(kv, "=")
		if _, dup := v[key]; dup {
			return nil, fmt.Errorf("--param %s given twice", key)
		}
		p, ok := spec.Param(key)
		if !ok {
			v[key] = text
			continue
		}
		if v[key], err = parseParam(p.Kind, text); err != nil {
			return nil, fmt.Errorf("--param %s: %w", kv, err)
		}
	}
	return v, nil
}

// parseParam parses text as a param of kind (see trainers.Param.Kind).
func parseParam(kind, text string) (any, error) {
	switch kind {
	case "float":
		return strconv.ParseFloat(text, 64)
	case "int":
		return strconv.Atoi(text)
	case "uint":
		return strconv.ParseUint(text, 10, 64)
	case "bool":
		return strconv.ParseBool(text)
	}
	return text, nil
}

// optionalInt is an int flag that knows whether it was given, so that an
// absent one leaves a default that depends on other flags (a feature
// set's window) and the help prints no misleading default.
type optionalInt struct {
	v   int
	set bool
}

func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.v)
}

func (o *optionalInt) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("must not be negative, got %d", v)
	}
	o.v, o.set = v, true
	return nil
}
