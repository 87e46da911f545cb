package experiments

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/strictyaml"
	"github.com/maxmargin/repro/trainers"
)

// schemaKeys lists the YAML keys of t's fields as paths ("splits.kind",
// "trainers[].C"), from their struct tags; leaf paths stop the descent.
func schemaKeys(t reflect.Type, prefix string, leaf map[string]bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		if t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Struct {
			return []string{prefix} // a list of values is one key
		}
		if t.Kind() == reflect.Slice {
			prefix += "[]"
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || leaf[prefix] {
		return []string{prefix}
	}
	var out []string
	for f := range t.Fields() {
		tag, ok := f.Tag.Lookup("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if !ok || name == "-" {
			continue
		}
		if in, ok := reflect.Zero(f.Type).Interface().(strictyaml.Inline); ok && opts == "inline" {
			for _, k := range slices.Sorted(maps.Keys(in.InlineKeys())) { // a trainer's params
				out = append(out, prefix+"."+k)
			}
			continue
		}
		if opts == "inline" && f.Type.Kind() == reflect.Map {
			out = append(out, prefix+".<metric>") // paper values by metric name
			continue
		}
		if opts == "inline" || f.Anonymous {
			out = append(out, schemaKeys(f.Type, prefix, leaf)...)
			continue
		}
		path := name
		if prefix != "" {
			path = prefix + "." + name
		}
		out = append(out, schemaKeys(f.Type, path, leaf)...)
	}
	return out
}

// documentedKeys reads the key column of docs/config.md's "Every key"
// table: "`a.b`, `.c`" documents a.b and a.c.
func documentedKeys(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Every key\n")
	if !ok {
		t.Fatal(`docs/config.md has no "## Every key" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var keys []string
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.Split(line, " | ")[0][2:]
		var parent string
		for _, k := range strings.Split(cell, ", ") {
			k = strings.Trim(k, "`")
			if strings.HasPrefix(k, ".") {
				k = parent + k
			} else if i := strings.LastIndex(k, "."); i >= 0 {
				parent = k[:i]
			}
			keys = append(keys, k)
		}
	}
	return keys
}

// docs/config.md's key table is the config schema: every key of Config's
// struct tags is in it, and nothing else is, except that a trainer's
// params are documented by docs/trainers.md (generated from the registry)
// under one row, trainers[].<param>.
func TestConfigDocsListEveryKey(t *testing.T) {
	t.Parallel()
	params := map[string]bool{}
	for _, s := range trainers.Specs() {
		for _, p := range s.Params {
			params[p.Key] = true
		}
	}
	// features is documented as features' keys; taxonomy is a tree
	leaf := map[string]bool{"datasets[].features": true, "datasets[].taxonomy": true}
	schema := schemaKeys(reflect.TypeFor[config.Config](), "", leaf)
	documented := documentedKeys(t)
	if len(documented) == 0 {
		t.Fatal("docs/config.md's key table is empty")
	}
	for _, k := range schema {
		if slices.Contains(documented, k) {
			continue
		}
		if p, ok := strings.CutPrefix(k, "trainers[]."); ok && params[p] && slices.Contains(documented, "trainers[].<param>") {
			continue
		}
		t.Errorf("config key %s (experiments/config.go) is not in docs/config.md's key table", k)
	}
	for _, k := range documented {
		if k != "trainers[].<param>" && !slices.Contains(schema, k) {
			t.Errorf("docs/config.md documents %s, which the config schema does not have", k)
		}
	}
}

// docs/config.md states the feature settings' bounds as features.Settings
// declares them, the bounds configs and repro train's flags share.
func TestConfigDocsStateFeatureBounds(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range features.Settings() {
		row := "| `features." + st.Key + "` |"
		_, rest, ok := strings.Cut(string(b), row)
		line, _, _ := strings.Cut(rest, "\n")
		if want := fmt.Sprintf("; %d to %d", st.Min, st.Max); !ok || !strings.Contains(line, want) {
			t.Errorf("docs/config.md's row %s does not say %q", row, want)
		}
	}
}
