package strictyaml

import (
	"errors"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type inner struct {
	Epochs *int      `yaml:"epochs"`
	C      []float64 `yaml:"C"`
	On     bool      `yaml:"on"`
}

type settings struct {
	Name  string  `yaml:"name"`
	Seed  uint64  `yaml:"seed"`
	Items []inner `yaml:"items"`
}

func decode(text string, maxNodes int) (settings, error) {
	var s settings
	doc := Doc{File: "f.yaml", Noun: "thing", MaxNodes: maxNodes}
	root, err := Parse([]byte(text), doc)
	if err != nil {
		return s, err
	}
	return s, Decode(root, &s, doc)
}

func TestDecodeValid(t *testing.T) {
	s, err := decode("name: x\nseed: 3\nitems:\n  - {epochs: 2, C: [0.1, 1], on: true}\n  - {}\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "x" || s.Seed != 3 || len(s.Items) != 2 || *s.Items[0].Epochs != 2 || s.Items[0].C[1] != 1 || !s.Items[0].On || s.Items[1].Epochs != nil {
		t.Fatalf("decoded %+v", s)
	}
}

// Every mistake is an *Error naming the file, the line and the field.
func TestErrors(t *testing.T) {
	bomb := "items:\n  - {C: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}\n" + strings.Repeat("  - {C: *a}\n", 10)
	tests := []struct {
		name, text string
		maxNodes   int
		want       string
	}{
		{"empty", "", 0, "f.yaml: the thing is empty"},
		{"only a comment", "# nothing\n", 0, "f.yaml: the thing is empty"},
		{"second document", "name: a\n---\nname: b\n", 0, "f.yaml:2: a second YAML document ('---'); a thing is one document"},
		{"unclosed list", "name: a\nitems: [{epochs: 1}\nseed: 2\n", 0, "f.yaml:2: syntax error: a list '[' opened on this line is not closed"},
		{"unclosed list on line 1", "items: [{epochs: 1}\nseed: 2\n", 0, "f.yaml:1: syntax error: a list '['"},
		{"unknown key", "name: a\nsede: 2\n", 0, `f.yaml:2: sede: unknown key (did you mean "seed"?) (valid keys here: items, name, seed)`},
		{"nested unknown key", "items:\n  - {epoch: 2}\n", 0, `f.yaml:2: items[0].epoch: unknown key (did you mean "epochs"?)`},
		{"repeated key", "seed: 1\nname: a\nseed: 2\n", 0, "f.yaml:3: seed: given twice (first at line 1)"},
		{"string for an integer", "items:\n  - epochs: three\n", 0, `f.yaml:2: items[0].epochs: cannot use "three" as an integer`},
		{"quoted integer", "items:\n  - epochs: \"5\"\n", 0, `f.yaml:2: items[0].epochs: cannot use "5" as an integer`},
		{"fraction for an integer", "seed: 1.5\n", 0, "f.yaml:1: seed: cannot use 1.5 as a non-negative integer"},
		{"negative unsigned", "seed: -1\n", 0, "f.yaml:1: seed: cannot use -1 as a non-negative integer"},
		{"no value", "items:\n  - epochs:\n", 0, "f.yaml:2: items[0].epochs: has no value; remove the key to use the default"},
		{"scalar for a list", "items: 3\n", 0, "f.yaml:1: items: expected a list, found 3"},
		{"list for a scalar", "name: [a]\n", 0, "f.yaml:1: name: expected a string, found a list"},
		{"bool", "items:\n  - on: yes please\n", 0, `items[0].on: cannot use "yes please" as true or false`},
		{"alias bomb", bomb, 50, "the thing expands to more than 50 YAML nodes"},
	}
	for _, tt := range tests {
		_, err := decode(tt.text, tt.maxNodes)
		var e *Error
		if err == nil || !errors.As(err, &e) || e.File != "f.yaml" || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want an *Error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestDecodeNeedsPointer(t *testing.T) {
	root, err := Parse([]byte("name: a\n"), Doc{File: "f"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Decode(root, settings{}, Doc{File: "f"}); err == nil {
		t.Fatal("decoded into a non-pointer")
	}
}

func TestFind(t *testing.T) {
	root, err := Parse([]byte("name: a\nitems:\n  - epochs: 2\n  - C: [1, 2]\n"), Doc{File: "f"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path  []any
		found bool
		line  int
	}{
		{[]any{"name"}, true, 1},
		{[]any{"items", 1, "C", 1}, true, 4},
		{[]any{"items", 0, "C"}, false, 3}, // absent: the deepest written ancestor's line
		{[]any{"items", 5}, false, 2},
		{[]any{"seed"}, false, 0},
	}
	for _, tt := range tests {
		n, line := Find(root, tt.path...)
		if (n != nil) != tt.found || line != tt.line {
			t.Errorf("Find(%v) = %v, line %d; want found %v, line %d", tt.path, n, line, tt.found, tt.line)
		}
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		got        string
		candidates []string
		want       string
	}{
		{"trainer", []string{"trainers", "tasks"}, ` (did you mean "trainers"?)`},
		{"TRAINERS", []string{"trainers"}, ` (did you mean "trainers"?)`},
		{"xyz", []string{"trainers"}, ""},
		{"a", nil, ""},
	}
	for _, tt := range tests {
		if got := Suggest(tt.got, tt.candidates); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.got, got, tt.want)
		}
	}
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"seed", "sede", 2}} {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// extra is an open set of keys with a type each, decoded inline.
type extra map[string]any

func (extra) InlineKeys() map[string]any {
	return map[string]any{"epsilon": 0.0, "epochs": 0, "average": false, "solver": ""}
}

type entry struct {
	Name  string `yaml:"name"`
	Extra extra  `yaml:",inline"`
}

// An inline map takes the keys no field takes, each decoded strictly as
// its own type, with the same messages as struct fields.
func TestInline(t *testing.T) {
	tests := []struct {
		text string
		want extra
		err  string
	}{
		{"name: a\nepochs: 3\nepsilon: 1\naverage: false\nsolver: x\n", extra{"epochs": 3, "epsilon": 1.0, "average": false, "solver": "x"}, ""},
		{"name: a\n", nil, ""},
		{"name: a\nepochs: 1.5\n", nil, "f.yaml:2: epochs: cannot use 1.5 as an integer"},
		{"name: a\nepoch: 1\n", nil, `f.yaml:2: epoch: unknown key (did you mean "epochs"?) (valid keys here: average, epochs, epsilon, name, solver)`},
		{"epochs: 1\nepochs: 2\n", nil, "f.yaml:2: epochs: given twice (first at line 1)"},
		{"epochs:\n", nil, "f.yaml:1: epochs: has no value; remove the key to use the default"},
	}
	for _, tt := range tests {
		doc := Doc{File: "f.yaml"}
		root, err := Parse([]byte(tt.text), doc)
		if err != nil {
			t.Fatal(err)
		}
		var e entry
		err = Decode(root, &e, doc)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: %v, want %q", tt.text, err, tt.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.text, err)
		case len(e.Extra) != len(tt.want):
			t.Errorf("%q: %#v, want %#v", tt.text, e.Extra, tt.want)
		default:
			for k, v := range tt.want {
				if e.Extra[k] != v {
					t.Errorf("%q: %s = %#v, want %#v", tt.text, k, e.Extra[k], v)
				}
			}
		}
	}
}

// A yaml.Node field takes its block as written, for its own reader.
func TestDecodeNode(t *testing.T) {
	var s struct {
		Tree *yaml.Node `yaml:"tree"`
	}
	doc := Doc{File: "f.yaml", Noun: "thing"}
	root, err := Parse([]byte("tree:\n  - a: [b, c]\n  - d\n"), doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := Decode(root, &s, doc); err != nil {
		t.Fatal(err)
	}
	if s.Tree == nil || s.Tree.Kind != yaml.SequenceNode || len(s.Tree.Content) != 2 || s.Tree.Line != 2 {
		t.Fatalf("decoded %+v", s.Tree)
	}
}
