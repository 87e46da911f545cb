package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/features"
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
// trainer's params); a value that is not of its kind is an error naming the
// flag and what the param takes.
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
		if v[key], err = p.Parse(text); err != nil {
			return nil, paramFlagError(err, nil)
		}
	}
	return v, nil
}

// paramFlagError rewrites a trainer's *trainers.ParamError with the flag
// that states the param: --C, or --solver or --epochs when given (in
// flagged), else --param KEY. Other errors are returned as they are.
func paramFlagError(err error, flagged map[string]bool) error {
	var pe *trainers.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	flag := "--param " + pe.Key
	if pe.Key == trainers.ParamC || flagged[pe.Key] {
		flag = "--" + pe.Key
	}
	return usagef("%s %s", flag, pe.Msg)
}

// optionalInt is an int flag that knows whether it was given, so that an
// absent one leaves a default that depends on other flags (a feature
// set's window) and the help prints no misleading default. Its value must
// lie within the bounds configs give the feature setting key
// (features.Settings), checked as the flag is parsed, before any work.
type optionalInt struct {
	key string
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
		return fmt.Errorf("takes an integer, got %q", s)
	}
	if err := features.CheckSetting(o.key, v); err != nil {
		return err
	}
	o.v, o.set = v, true
	return nil
}
