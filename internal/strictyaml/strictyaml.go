package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Error is a problem in a YAML file, located by line (1-based; 0 when
// unknown) and field path (e.g. trainers[0].epochs; empty for the whole
// document).
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// DefaultMaxNodes bounds the YAML nodes a document may expand to, aliases
// followed, when Doc.MaxNodes is 0: settings files are a page or two, and
// the bound keeps an alias bomb ("billion laughs") from exhausting memory.
const DefaultMaxNodes = 100_000

// Doc describes the document being read, for its messages.
type Doc struct {
	File string // named in every error
	// Noun names the kind of document in messages ("config"); default
	// "document".
	Noun string
	// Empty is the message for an empty document; default "the <noun> is
	// empty".
	Empty string
	// MaxNodes bounds the nodes decoded, aliases expanded; default
	// DefaultMaxNodes.
	MaxNodes int
}

func (d Doc) noun() string {
	if d.Noun == "" {
		return "document"
	}
	return d.Noun
}

func (d Doc) maxNodes() int {
	if d.MaxNodes <= 0 {
		return DefaultMaxNodes
	}
	return d.MaxNodes
}

func (d Doc) empty() string {
	if d.Empty == "" {
		return "the " + d.noun() + " is empty"
	}
	return d.Empty
}

// Parse parses data into one YAML document. yaml.v3's own messages are
// rewritten so that every line is 1-based, an unclosed '[' or '{' is
// reported at the line that opened it, and an empty document, or a second
// one, says so. Errors are *Error.
func Parse(data []byte, doc Doc) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: doc.File, Msg: doc.empty()}
		}
		return nil, syntaxError(err, data, doc.File)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{File: doc.File, Line: extra.Line, Msg: fmt.Sprintf("a second YAML document ('---'); a %s is one document", doc.noun())}
	} else if !errors.Is(err, io.EOF) {
		return nil, syntaxError(err, data, doc.File)
	}
	if len(root.Content) == 0 || (root.Content[0].Kind == yaml.ScalarNode && root.Content[0].Tag == "!!null") {
		return nil, &Error{File: doc.File, Msg: doc.empty()}
	}
	return &root, nil
}

// Decode stores the YAML tree n into v, a pointer, strictly (see decoder).
func Decode(n *yaml.Node, v any, doc Doc) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("strictyaml: Decode needs a non-nil pointer, got %T", v)
	}
	d := decoder{doc: doc}
	return d.decode(n, rv.Elem(), "")
}

// yamlLine matches the "line N: " prefix of yaml.v3's syntax errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are yaml.v3's parser (not scanner) errors, with the
// wording used instead. yaml.v3 reports their line 0-based (one line early:
// unlike scanner errors it is not incremented) and at the mark of the
// construct being parsed, such as the '[' of an unclosed list, unless that
// construct starts on the first line, when it reports the 0-based line of
// the problem itself (or none).
var parserProblems = map[string]string{
	"did not find expected ',' or ']'":       "a list '[' opened on this line is not closed by ']' (or two items lack a ',' between them)",
	"did not find expected ',' or '}'":       "a mapping '{' opened on this line is not closed by '}' (or two entries lack a ',' between them)",
	"did not find expected key":              "a line is not 'key: value' at the indentation of its mapping (check the indentation from here on)",
	"did not find expected '-' indicator":    "a line is not a '- item' at the indentation of its list (check the indentation from here on)",
	"did not find expected node content":     "a value is missing or malformed",
	"did not find expected <document start>": "unexpected content after the document",
	"found undefined tag handle":             "undefined tag handle",
	"found duplicate %YAML directive":        "duplicate %YAML directive",
	"found incompatible YAML document":       "incompatible YAML version",
	"found duplicate %TAG directive":         "duplicate %TAG directive",
	"did not find expected <stream-start>":   "not a YAML stream",
}

// flowOpeners maps the unclosed-collection problems to their opening
// character.
var flowOpeners = map[string]string{
	"did not find expected ',' or ']'": "[",
	"did not find expected ',' or '}'": "{",
}

// syntaxError turns a yaml.v3 parse error into an *Error with a 1-based
// line; data is the document's text, used to find an unclosed '[' or '{'.
func syntaxError(err error, data []byte, file string) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	better, isParser := parserProblems[msg]
	if !isParser {
		return &Error{File: file, Line: line, Msg: "syntax error: " + msg}
	}
	line++ // 0-based, or absent (the first line)
	if opener, ok := flowOpeners[msg]; ok {
		lines := strings.Split(string(data), "\n")
		has := func(l int) bool { return l >= 1 && l <= len(lines) && strings.Contains(lines[l-1], opener) }
		if !has(line) && has(1) {
			line = 1 // the collection opened on the first line, which yaml.v3 cannot report
		}
	}
	return &Error{File: file, Line: line, Msg: "syntax error: " + better}
}

// decoder decodes a YAML tree into Go values, strictly: unknown or repeated
// keys, values of the wrong kind and non-integers for integer fields are
// errors naming the file, line and field path (e.g. trainers[0].epochs).
// It replaces yaml.v3's Decode, whose messages name neither the field nor
// the file ("cannot unmarshal !!str `three` into int") and which silently
// truncates 1.5 to 1 for an integer field.
type decoder struct {
	doc    Doc
	nodes  int                // nodes decoded so far, aliases expanded
	active map[*yaml.Node]int // alias targets being decoded, to refuse cycles
}

func (d *decoder) errorf(n *yaml.Node, path, format string, args ...any) error {
	return &Error{File: d.doc.File, Line: n.Line, Field: path, Msg: fmt.Sprintf(format, args...)}
}

// decode stores n into v, which must be settable.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) error {
	if d.nodes++; d.nodes > d.doc.maxNodes() {
		return d.errorf(n, path, "the %s expands to more than %d YAML nodes (aliases included)", d.doc.noun(), d.doc.maxNodes())
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return d.errorf(n, path, "expected one YAML document")
		}
		return d.decode(n.Content[0], v, path)
	case yaml.AliasNode:
		if d.active[n.Alias] > 0 {
			return d.errorf(n, path, "alias *%s refers to itself", n.Value)
		}
		if d.active == nil {
			d.active = map[*yaml.Node]int{}
		}
		d.active[n.Alias]++
		defer func() { d.active[n.Alias]-- }()
		return d.decode(n.Alias, v, path)
	}
	if v.Kind() == reflect.Pointer {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return d.errorf(n, path, "has no value; remove the key to use the default")
		}
		p := reflect.New(v.Type().Elem())
		if err := d.decode(n, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
		return nil
	}
	if v.Type() == reflect.TypeFor[yaml.Node]() {
		v.Set(reflect.ValueOf(*n)) // a block its own reader decodes (e.g. a taxonomy)
		return nil
	}
	switch v.Kind() {
	case reflect.Struct:
		return d.decodeStruct(n, v, path)
	case reflect.Slice:
		return d.decodeSlice(n, v, path)
	}
	if n.Kind != yaml.ScalarNode {
		return d.errorf(n, path, "expected %s, found %s", kindName(v.Type()), KindName(n))
	}
	if n.Tag == "!!null" {
		return d.errorf(n, path, "has no value; remove the key to use the default")
	}
	return d.decodeScalar(n, v, path)
}

// Inline is implemented by the map type of a struct field tagged
// `yaml:",inline"` whose keys are a known set: the field takes the keys of
// the struct's mapping that no other field takes, as long as InlineKeys
// lists them (an inline map without it takes any key). The value of each is
// decoded strictly as the type of the zero value InlineKeys gives for it
// (e.g. float64(0), 0, false, ""), so an open set of keys (a trainer's
// params) is read with the same rules and messages as struct fields.
type Inline interface {
	InlineKeys() map[string]any
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, path string) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, path, "expected a mapping, found %s", KindName(n))
	}
	fields, inline := yamlFields(v.Type())
	var inlineKeys map[string]any
	if inline != nil {
		if in, ok := v.FieldByIndex(inline.Index).Interface().(Inline); ok {
			inlineKeys = in.InlineKeys()
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range fields {
			if !yield(name) {
				return
			}
		}
		for name := range inlineKeys {
			if _, dup := fields[name]; !dup && !yield(name) {
				return
			}
		}
	})
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		field := joinPath(path, k.Value)
		f, ok := fields[k.Value]
		zero, typed := inlineKeys[k.Value]
		open := !ok && inline != nil && inlineKeys == nil // an open inline map: any key
		if (!ok && !typed && !open) || k.Kind != yaml.ScalarNode {
			return d.errorf(k, field, "unknown key%s (valid keys here: %s)", Suggest(k.Value, names), strings.Join(names, ", "))
		}
		if first, dup := seen[k.Value]; dup {
			return d.errorf(k, field, "given twice (first at line %d)", first)
		}
		seen[k.Value] = k.Line
		if !ok {
			m := v.FieldByIndex(inline.Index)
			if open {
				zero = reflect.Zero(m.Type().Elem()).Interface()
			}
			if err := d.decodeInline(val, m, k.Value, zero, field); err != nil {
				return err
			}
			continue
		}
		if err := d.decode(val, v.FieldByIndex(f.Index), field); err != nil {
			return err
		}
	}
	return nil
}

// decodeInline decodes val as a value of zero's type and stores it in the
// inline map m under key.
func (d *decoder) decodeInline(val *yaml.Node, m reflect.Value, key string, zero any, path string) error {
	x := reflect.New(reflect.TypeOf(zero)).Elem()
	if err := d.decode(val, x, path); err != nil {
		return err
	}
	if m.IsNil() {
		m.Set(reflect.MakeMap(m.Type()))
	}
	m.SetMapIndex(reflect.ValueOf(key), x)
	return nil
}

func (d *decoder) decodeSlice(n *yaml.Node, v reflect.Value, path string) error {
	if n.Kind != yaml.SequenceNode {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return d.errorf(n, path, "has no value; remove the key to use the default")
		}
		return d.errorf(n, path, "expected a list, found %s", KindName(n))
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, c := range n.Content {
		if err := d.decode(c, s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	v.Set(s)
	return nil
}

// decodeScalar stores a non-null scalar into a string, bool, integer or
// float field. Integers must be written as integers: 1.5 or "3" for an
// integer field is an error, not a rounded or parsed value.
func (d *decoder) decodeScalar(n *yaml.Node, v reflect.Value, path string) error {
	cannot := func(what string) error {
		return d.errorf(n, path, "cannot use %s as %s", quoteScalar(n), what)
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(n.Value)
	case reflect.Bool:
		var b bool
		if n.Tag != "!!bool" || n.Decode(&b) != nil {
			return cannot("true or false")
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var i int64
		if n.Tag != "!!int" || n.Decode(&i) != nil || v.OverflowInt(i) {
			return cannot("an integer")
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		var u uint64
		if n.Tag != "!!int" || n.Decode(&u) != nil || v.OverflowUint(u) {
			return cannot("a non-negative integer")
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		var f float64
		if (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&f) != nil {
			return cannot("a number")
		}
		v.SetFloat(f)
	default:
		return d.errorf(n, path, "unsupported field type %s", v.Type())
	}
	return nil
}

// quoteScalar shows a scalar as written: quoted if it was a string.
func quoteScalar(n *yaml.Node) string {
	if n.Tag == "!!str" {
		return strconv.Quote(n.Value)
	}
	return n.Value
}

// KindName describes a node for messages: "a mapping", "a list", "no
// value", or the scalar as written (quoted if it was a string).
func KindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "no value"
		}
		return quoteScalar(n)
	}
	return "something else"
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice:
		return "a list"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	}
	return "a " + t.Kind().String()
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// yamlFields maps each YAML key of struct type t to its field, and returns
// the field tagged ",inline", if any: a map with string keys that takes the
// keys no other field has. If its type implements Inline, only the keys
// Inline lists, each of its own type; otherwise any key, of the map's
// element type, for the caller to check (e.g. metric names).
func yamlFields(t reflect.Type) (map[string]reflect.StructField, *reflect.StructField) {
	out := map[string]reflect.StructField{}
	var inline *reflect.StructField
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if name == "" && slices.Contains(strings.Split(opts, ","), "inline") {
			if f.Type.Kind() != reflect.Map || f.Type.Key().Kind() != reflect.String {
				panic(fmt.Sprintf("strictyaml: inline field %s of %s is not a map with string keys", f.Name, t))
			}
			inline = &f
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f
	}
	return out, inline
}

// Find returns the node at path in the tree under root (string elements
// are mapping keys, int elements list indices), following aliases, and the
// line of the deepest element found: the key for a mapping entry, the item
// for a list element. The node is nil if the path is not written.
func Find(root *yaml.Node, path ...any) (*yaml.Node, int) {
	n := root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, p := range path {
		if n == nil {
			break
		}
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		var next *yaml.Node
		switch p := p.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == p {
						line, next = n.Content[i].Line, n.Content[i+1]
						break
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && p >= 0 && p < len(n.Content) {
				next = n.Content[p]
				line = next.Line
			}
		}
		n = next
	}
	return n, line
}

// Suggest returns ` (did you mean "x"?)` for the candidate closest to got
// (case-insensitively) within an edit distance of 2, or "".
func Suggest(got string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := EditDistance(strings.ToLower(got), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// EditDistance is the Levenshtein distance between a and b, in bytes.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
