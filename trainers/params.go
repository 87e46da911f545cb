package trainers

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Values are a trainer's params as a config or a command line states them:
// param key (e.g. "epsilon", "C_per_example") to value. Numbers may be any
// Go integer or float type (an integer param takes a float only if it is
// integral); a nil value or an absent key leaves the param at its default.
type Values map[string]any

// Keys of the params that a run supplies rather than a config's trainer
// settings: the trade-off C (one value of a config's grid) and the seed of a
// trainer's random order (derived from the experiment's seed and split).
const (
	ParamC    = "C"
	ParamSeed = "seed"
)

// Param describes one param a trainer accepts.
type Param struct {
	Key  string
	Kind string // float, int, uint, bool or string
	Help string
	// Default is the value training uses when the param is absent, as
	// text; "" for a required param or one without a default.
	Default  string
	Required bool
	// Execution marks a param that says how training runs, not what it
	// computes (threads): results do not depend on it, so a caller keeps
	// it out of whatever identifies a run (the experiments' unit keys).
	Execution bool
}

// Spec describes a trainer: its name as configs spell it, a one-line
// summary, what C means for it ("" when it has no C) and its params.
type Spec struct {
	Name    string
	Summary string
	C       string
	Params  []Param
}

// Param returns the param called key and whether the trainer accepts it.
func (s Spec) Param(key string) (Param, bool) {
	for _, p := range s.Params {
		if p.Key == key {
			return p, true
		}
	}
	return Param{}, false
}

// String renders s as help text: the name and summary, the meaning of C,
// then one line per param.
func (s Spec) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", s.Name, s.Summary)
	if s.C != "" {
		fmt.Fprintf(&b, "  C: %s\n", s.C)
	}
	for _, p := range s.Params {
		if p.Key == ParamC {
			continue
		}
		def := p.Default
		switch {
		case p.Required:
			def = "required"
		case def == "":
			def = "unset"
		}
		fmt.Fprintf(&b, "  %s (%s, default %s): %s\n", p.Key, p.Kind, def, p.Help)
	}
	return b.String()
}

// ParamError is a param that a trainer does not accept or whose value is
// wrong; Key names it, so a config can point at the line that sets it.
type ParamError struct {
	Key string
	Msg string
}

func (e *ParamError) Error() string { return e.Key + ": " + e.Msg }

// params is the constraint on a trainer's typed params P: a struct whose
// fields carry `param:"key"` tags (",required" marks a param without
// default, ",execution" one that does not change results: see
// Param.Execution) and `help:"..."` tags, with the defaults in Resolved and the
// ranges in Validate (reported as *ParamError).
type params[P any] interface {
	// Resolved returns the params with every unset field at its default.
	Resolved() P
	// Validate checks resolved params.
	Validate() error
}

// paramField is one tagged field of a params struct, found through
// embedded structs.
type paramField struct {
	index     []int
	key       string
	help      string
	required  bool
	execution bool
}

func paramFields(t reflect.Type) []paramField {
	var out []paramField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			for _, sub := range paramFields(f.Type) {
				sub.index = append([]int{i}, sub.index...)
				out = append(out, sub)
			}
			continue
		}
		tag, ok := f.Tag.Lookup("param")
		if !ok {
			continue
		}
		key, opt, _ := strings.Cut(tag, ",")
		out = append(out, paramField{index: []int{i}, key: key, help: f.Tag.Get("help"), required: opt == "required", execution: opt == "execution"})
	}
	return out
}

func kindName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Float64:
		return "float"
	case reflect.Int:
		return "int"
	case reflect.Uint64:
		return "uint"
	case reflect.Bool:
		return "bool"
	case reflect.String:
		return "string"
	}
	panic(fmt.Sprintf("trainers: param of unsupported type %s", t))
}

// describe lists P's params with their defaults (P's zero value resolved).
func describe[P params[P]]() []Param {
	var zero P
	def := encodeParams(zero.Resolved())
	t := reflect.TypeFor[P]()
	var out []Param
	for _, f := range paramFields(t) {
		p := Param{Key: f.key, Kind: kindName(t.FieldByIndex(f.index).Type), Help: f.help, Required: f.required, Execution: f.execution}
		if v, ok := def[f.key]; ok && !f.required {
			p.Default = fmt.Sprint(v)
		}
		out = append(out, p)
	}
	return out
}

// decodeParams sets P's fields from v strictly: a key P has no field for,
// or a value of the wrong type, is a *ParamError.
func decodeParams[P any](trainer string, v Values) (P, error) {
	var p P
	rv := reflect.ValueOf(&p).Elem()
	fields := map[string]paramField{}
	var keys []string
	for _, f := range paramFields(rv.Type()) {
		fields[f.key] = f
		keys = append(keys, f.key)
	}
	for key, x := range v {
		f, ok := fields[key]
		if !ok {
			return p, &ParamError{Key: key, Msg: fmt.Sprintf("does not apply to trainer %q (its params: %s)", trainer, strings.Join(keys, ", "))}
		}
		if x == nil {
			continue
		}
		if err := setParam(rv.FieldByIndex(f.index), x); err != nil {
			return p, &ParamError{Key: key, Msg: err.Error()}
		}
	}
	return p, nil
}

// setParam stores x in dst, converting between numeric types only where no
// value is lost.
func setParam(dst reflect.Value, x any) error {
	if dst.Kind() == reflect.Pointer {
		dst.Set(reflect.New(dst.Type().Elem()))
		dst = dst.Elem()
	}
	xv := reflect.ValueOf(x)
	var f float64
	numeric := true
	switch xv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f = float64(xv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if dst.Kind() == reflect.Uint64 {
			dst.SetUint(xv.Uint())
			return nil
		}
		f = float64(xv.Uint())
	case reflect.Float32, reflect.Float64:
		f = xv.Float()
	default:
		numeric = false
	}
	switch dst.Kind() {
	case reflect.Float64:
		if numeric {
			dst.SetFloat(f)
			return nil
		}
	case reflect.Int:
		if numeric && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			dst.SetInt(int64(f))
			return nil
		}
	case reflect.Uint64:
		if numeric && f == math.Trunc(f) && f >= 0 && f < 1<<53 {
			dst.SetUint(uint64(f))
			return nil
		}
	case reflect.Bool, reflect.String:
		if xv.Kind() == dst.Kind() {
			dst.Set(xv)
			return nil
		}
	}
	return fmt.Errorf("expected %s, got %v (%T)", kindName(dst.Type()), x, x)
}

// encodeParams returns p's params as Values: every field, nil pointers
// left out.
func encodeParams[P any](p P) Values {
	rv := reflect.ValueOf(p)
	out := Values{}
	for _, f := range paramFields(rv.Type()) {
		x := rv.FieldByIndex(f.index)
		if x.Kind() == reflect.Pointer {
			if x.IsNil() {
				continue
			}
			x = x.Elem()
		}
		out[f.key] = x.Interface()
	}
	return out
}
