package trainers

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
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
	// Optional marks a param whose zero is a value of its own, told apart
	// from unset (average: false, loss_scale: 0). Any other numeric param
	// reads 0 as unset, so giving it 0 where its default is not 0 is an
	// error rather than a silent default.
	Optional bool
	// Hyper marks a hyperparameter of the objective or the algorithm
	// (epochs, k, beta) that results list beside C, as opposed to a
	// solver's tolerances and caps.
	Hyper bool
	// Range bounds a numeric param (the zero Range: any value). Training,
	// configs and command lines all check it here.
	Range Range
}

// ParamThreads is the key of the execution param that says how many
// goroutines one training may use, which a scheduler reserves cores for.
const ParamThreads = "threads"

// Range is the interval a numeric param's value must lie in, declared by
// the param's `range` tag: "[1,)" is at least 1, "(0,1e12]" positive and at
// most 1e12; an empty end is unbounded, and never admits an infinity.
type Range struct {
	Min, Max         float64 // ±Inf when unbounded
	MinOpen, MaxOpen bool
	declared         bool
}

// parseRange parses a range tag ("" for none).
func parseRange(tag string) (Range, error) {
	if tag == "" {
		return Range{}, nil
	}
	lo, hi, ok := strings.Cut(tag, ",")
	if !ok || len(lo) < 1 || len(hi) < 1 || !strings.ContainsRune("[(", rune(lo[0])) || !strings.ContainsRune("])", rune(hi[len(hi)-1])) {
		return Range{}, fmt.Errorf("range %q: want e.g. [1,) or (0,1e12]", tag)
	}
	r := Range{Min: math.Inf(-1), Max: math.Inf(1), MinOpen: lo[0] == '(', MaxOpen: hi[len(hi)-1] == ')', declared: true}
	var err error
	if x := strings.TrimSpace(lo[1:]); x != "" {
		if r.Min, err = strconv.ParseFloat(x, 64); err != nil {
			return Range{}, fmt.Errorf("range %q: %w", tag, err)
		}
	}
	if x := strings.TrimSpace(hi[:len(hi)-1]); x != "" {
		if r.Max, err = strconv.ParseFloat(x, 64); err != nil {
			return Range{}, fmt.Errorf("range %q: %w", tag, err)
		}
	}
	return r, nil
}

// Contains reports whether x lies in r (NaN never does; an infinity only
// at a closed end that is itself infinite, which a tag cannot write).
func (r Range) Contains(x float64) bool {
	if !r.declared {
		return true
	}
	switch {
	case math.IsNaN(x), math.IsInf(x, 0):
		return false
	case x < r.Min || r.MinOpen && x == r.Min:
		return false
	case x > r.Max || r.MaxOpen && x == r.Max:
		return false
	}
	return true
}

// String writes r as an interval, e.g. [1, ∞); "" when there is no bound.
func (r Range) String() string {
	if !r.declared {
		return ""
	}
	end := func(x float64) string {
		switch {
		case math.IsInf(x, 1):
			return "∞"
		case math.IsInf(x, -1):
			return "−∞"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	lo, hi := "[", "]"
	if r.MinOpen || math.IsInf(r.Min, 0) {
		lo = "("
	}
	if r.MaxOpen || math.IsInf(r.Max, 0) {
		hi = ")"
	}
	return lo + end(r.Min) + ", " + end(r.Max) + hi
}

// Check returns nil if x lies in r, else the reason, worded for a reader
// of a config or a command line (e.g. "must be at least 1, got 0").
func (r Range) Check(x float64) error {
	if r.Contains(x) {
		return nil
	}
	got := strconv.FormatFloat(x, 'g', -1, 64)
	finite := ""
	if math.IsNaN(x) || math.IsInf(x, 0) {
		finite = " and finite"
	}
	if math.IsInf(r.Max, 1) {
		switch {
		case r.Min == 0 && r.MinOpen:
			return fmt.Errorf("must be positive%s, got %s", finite, got)
		case r.Min == 0:
			return fmt.Errorf("must be non-negative%s, got %s", finite, got)
		case !r.MinOpen:
			return fmt.Errorf("must be at least %s%s, got %s", strconv.FormatFloat(r.Min, 'g', -1, 64), finite, got)
		}
	}
	return fmt.Errorf("must be in %s, got %s", r, got)
}

// Parse reads text as a value of the param's kind, as a command line
// states it (--param epochs=20); a value that is not one is a *ParamError
// saying what the param takes.
func (p Param) Parse(text string) (any, error) {
	var (
		x   any
		err error
	)
	switch p.Kind {
	case "float":
		x, err = strconv.ParseFloat(text, 64)
	case "int":
		x, err = strconv.Atoi(text)
	case "uint":
		x, err = strconv.ParseUint(text, 10, 64)
	case "bool":
		x, err = strconv.ParseBool(text)
	default:
		x = text
	}
	if err != nil {
		return nil, &ParamError{Key: p.Key, Msg: fmt.Sprintf("takes %s, got %q", kindPhrase(p.Kind), text)}
	}
	return x, nil
}

// kindPhrase names a param kind as a reader of a message would.
func kindPhrase(kind string) string {
	switch kind {
	case "float":
		return "a number"
	case "int":
		return "an integer"
	case "uint":
		return "a non-negative integer"
	case "bool":
		return "true or false"
	}
	return "text"
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

// Settings returns the text-valued hyperparameters (Param.Hyper of kind
// string) among resolved params v (Resolve) that are not at their default,
// e.g. {"rescaling": "slack"} or {"predict": "mpm"}: what makes a run
// another method of the trainer than its default one, so results name it
// beside the trainer and an x: beta figure draws it as a line of its own.
// It is nil when there are none, as for every run of the default method.
func (s Spec) Settings(v Values) map[string]string {
	var out map[string]string
	for _, p := range s.Params {
		x, ok := v[p.Key].(string)
		if !ok || !p.Hyper || p.Kind != "string" || x == "" || x == p.Default {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[p.Key] = x
	}
	return out
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
		def := "default " + p.Default
		switch {
		case p.Required:
			def = "required"
		case p.Default == "":
			def = "default unset"
		}
		kind := p.Kind
		if r := p.Range.String(); r != "" {
			kind += " in " + r
		}
		fmt.Fprintf(&b, "  %s (%s, %s): %s\n", p.Key, kind, def, p.Help)
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
// Param.Execution; ",hyper" a hyperparameter: Param.Hyper), `help:"..."`
// tags and, for numbers, `range:"..."` tags (see Range), with the defaults
// in Resolved and the rules that join params in Validate (reported as
// *ParamError). A pointer field is an optional param (Param.Optional).
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
	hyper     bool
	optional  bool
	rng       Range
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
		key, opts, _ := strings.Cut(tag, ",")
		pf := paramField{index: []int{i}, key: key, help: f.Tag.Get("help"), optional: f.Type.Kind() == reflect.Pointer}
		for _, opt := range strings.Split(opts, ",") {
			switch opt {
			case "required":
				pf.required = true
			case "execution":
				pf.execution = true
			case "hyper":
				pf.hyper = true
			case "":
			default:
				panic(fmt.Sprintf("trainers: param %q: unknown tag option %q", key, opt))
			}
		}
		rng, err := parseRange(f.Tag.Get("range"))
		if err != nil {
			panic(fmt.Sprintf("trainers: param %q: %v", key, err))
		}
		pf.rng = rng
		out = append(out, pf)
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
		p := Param{Key: f.key, Kind: kindName(t.FieldByIndex(f.index).Type), Help: f.help, Required: f.required, Execution: f.execution,
			Optional: f.optional, Hyper: f.hyper, Range: f.rng}
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

// checkGiven applies the rules on what v states, which resolved params no
// longer show: a required param must be given, and a numeric param that
// reads 0 as unset must not be given 0 when its default is not 0 (that
// would silently train with the default).
func checkGiven(params []Param, v Values) error {
	for _, p := range params {
		x, given := v[p.Key]
		given = given && x != nil
		switch {
		case p.Required && !given:
			return &ParamError{Key: p.Key, Msg: "is required and missing (" + p.Help + ")"}
		case given && !p.Optional && p.Kind != "bool" && p.Kind != "string" && isZero(x) && p.Default != "" && p.Default != "0":
			return &ParamError{Key: p.Key, Msg: fmt.Sprintf("must not be 0 (omit it for the default, %s)", p.Default)}
		}
	}
	return nil
}

// isZero reports whether a numeric value is 0.
func isZero(x any) bool {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	}
	return false
}

// checkRanges checks every numeric param of resolved p that is set
// against its declared Range.
func checkRanges[P any](p P) error {
	rv := reflect.ValueOf(p)
	for _, f := range paramFields(rv.Type()) {
		x := rv.FieldByIndex(f.index)
		if x.Kind() == reflect.Pointer {
			if x.IsNil() {
				continue
			}
			x = x.Elem()
		}
		var val float64
		switch x.Kind() {
		case reflect.Int:
			val = float64(x.Int())
		case reflect.Uint64:
			val = float64(x.Uint())
		case reflect.Float64:
			val = x.Float()
		default:
			continue
		}
		if err := f.rng.Check(val); err != nil {
			return &ParamError{Key: f.key, Msg: err.Error()}
		}
	}
	return nil
}
