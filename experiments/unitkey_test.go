package experiments

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/trainers"
)

// statedValue returns a valid value of param p that a config may state and
// that training does not read as unset: the required ones' (a number), a
// bool's opposite of its default, a number off its default (kept in its
// range), a string's default. ok is false for a string with no default.
func statedValue(p trainers.Param) (x any, ok bool) {
	switch p.Kind {
	case "bool":
		return p.Default != "true", true
	case "string":
		return p.Default, p.Default != ""
	case "int":
		var d int
		fmt.Sscan(p.Default, &d)
		return d + 1, true
	case "float":
		d := 1.0
		fmt.Sscan(p.Default, &d)
		if d == 0 {
			d = 0.5
		} else if p.Range.Check(2*d) == nil {
			d *= 2
		}
		return d, true
	}
	return nil, false
}

// A trainer's params are the registry's, end to end: every param every
// trainer declares is a config key (read inline beside name and C), reaches
// the unit and its trainer with the value the config states, and is in the
// unit's key unless it is an execution param; the spec reads back from its
// JSON to the same spec. Nothing in experiments lists them, so a trainer
// with a new param key needs its own file and its registry line only.
func TestTrainerParamsFlowFromTheRegistry(t *testing.T) {
	t.Parallel()
	var entries []config.TrainerSpec
	stated := map[string]trainers.Values{}
	// Trainers no task binds yet, so that no config can name them: the
	// latent-variable trainer waits for the MIL task (issue 40); the
	// generative baseline serves the cfg and alignment tasks only, which
	// this sequence config cannot name.
	unbound := map[string]bool{trainers.LatentLBetaName: true, trainers.Generative: true}
	for _, s := range trainers.Specs() {
		if unbound[s.Name] {
			continue
		}
		e := config.TrainerSpec{Name: s.Name, Params: config.TrainerParams{}}
		if p, ok := s.Param(trainers.ParamC); ok {
			e.C = []float64{0.1, 1}
			if !p.Required {
				e.C = []float64{0, 0.1}
			}
		}
		for _, p := range s.Params {
			if p.Key == trainers.ParamC || p.Key == trainers.ParamSeed {
				continue
			}
			if x, ok := statedValue(p); ok {
				e.Params[p.Key] = x
			}
		}
		// epsilon_relative needs the one-slack solver, drop_idle n-slack:
		// TestRelativeEpsilonReachesUnits states it on its own.
		delete(e.Params, "epsilon_relative")
		entries = append(entries, e)
		stated[s.Name] = trainers.Values(e.Params)
	}
	trainersYAML, err := yaml.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	text := "name: flow\nseed: 3\ndatasets:\n  - name: synthetic\n    synthetic: {sequences: 20, labels: 3, min_len: 3, max_len: 5}\n" +
		"splits:\n  count: 1\n  train_fractions: [0.5]\ntrainers:\n" + indent(string(trainersYAML), "  ")
	cfg := configFile(t, text)
	for _, e := range cfg.Trainers {
		if got, want := fmt.Sprint(map[string]any(e.Params)), fmt.Sprint(map[string]any(stated[e.Name])); got != want {
			t.Errorf("%s: config params %s, stated %s", e.Name, got, want)
		}
	}
	plan, err := Plan(context.Background(), cfg, Options{OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range plan {
		u := p.Spec
		seen[u.Trainer] = true
		v, err := u.TrainerParams()
		if err != nil {
			t.Fatal(err)
		}
		spec, err := trainers.SpecOf(u.Trainer)
		if err != nil {
			t.Fatal(err)
		}
		key, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		for k, x := range stated[u.Trainer] {
			q, _ := spec.Param(k)
			if fmt.Sprint(v[k]) != fmt.Sprint(x) {
				t.Errorf("%s: %s = %v reaches the trainer as %v", u.Trainer, k, x, v[k])
			}
			member := fmt.Sprintf("%q:", k)
			if inKey := strings.Contains(string(key), member); inKey == q.Execution && !(x == nil || reflect.ValueOf(x).IsZero()) {
				t.Errorf("%s: %s in the key %v, execution param %v: %s", u.Trainer, k, inKey, q.Execution, key)
			}
		}
		var back unitSpec
		if err := json.Unmarshal(key, &back); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		back.Execution, back.Label = u.Execution, u.Label
		if !reflect.DeepEqual(back, u) {
			t.Errorf("spec read back from its JSON differs:\n got %+v\nwant %+v", back, u)
		}
	}
	for _, name := range trainers.Names() {
		if !seen[name] && !unbound[name] {
			t.Errorf("trainer %s has no unit", name)
		}
	}
}

func indent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}

// A param key that no trainer had when unit specs held fields is written
// after them, sorted, so that adding one changes no existing unit's key;
// and a member that is not its trainer's param does not read back.
func TestUnitKeyNewParams(t *testing.T) {
	t.Parallel()
	u := unitSpec{Schema: store.SchemaVersion, Trainer: trainers.Margin, C: 1, Minimizer: "m", Curves: true,
		Params: trainers.Values{"zeta": 2, "alpha": 0.5, "solver": "n-slack", "epsilon": 0.01}}
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range []string{`"C":1,"epsilon":0.01,"qp_tolerance":0,"max_iterations":0,"seed":0`, `"phase":"","solver":"n-slack","minimizer":"m","curves":true,"alpha":0.5,"zeta":2}`} {
		if !strings.Contains(string(b), order) {
			t.Errorf("key JSON %s lacks %s", b, order)
		}
	}
	var back unitSpec
	if err := json.Unmarshal(b, &back); err == nil || !strings.Contains(err.Error(), `"alpha" is not a param of trainer "margin"`) {
		t.Errorf("a margin spec with alpha and zeta read back: %v", err)
	}
	delete(u.Params, "alpha")
	delete(u.Params, "zeta")
	if b, err = json.Marshal(u); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, u) {
		t.Errorf("read back %+v, %v; want %+v", back, err, u)
	}
}

// A 0 that is a value (an optional param's) reaches the trainer: before
// params were one map, loss_scale: 0 and a perceptron's average: false
// were dropped on the way and trained with the defaults (1, on).
func TestStatedZeroReachesTheTrainer(t *testing.T) {
	t.Parallel()
	cfg := configFile(t, `datasets: [{name: synthetic, synthetic: {sequences: 20}}]
splits: {count: 1}
trainers:
  - {name: entropy-margin, beta: 2, loss_scale: 0, C: [1]}
  - {name: perceptron, average: false}
`)
	plan, err := Plan(context.Background(), cfg, Options{OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]trainers.Values{trainers.EntropyMarginName: {"loss_scale": 0.0}, trainers.PerceptronName: {"average": false}}
	for _, p := range plan {
		v, err := p.Spec.TrainerParams()
		if err != nil {
			t.Fatal(err)
		}
		for k, x := range want[p.Spec.Trainer] {
			if got, ok := v[k]; !ok || got != x {
				t.Errorf("%s: %s reaches the trainer as %v (given: %v), want %v", p.Spec.Trainer, k, got, ok, x)
			}
		}
	}
}

// decoder: ilp is for the sequence and parsing tasks; it enters the units'
// keys (after curves) only when set, and exact is the default's key.
func TestDecoderConfig(t *testing.T) {
	t.Parallel()
	base := "name: d\ndatasets: [{name: synthetic}]\ntrainers: [{name: perceptron}]\n"
	keys := map[string]string{}
	for text, want := range map[string]string{
		"":                 "",
		"decoder: exact\n": "",
		"decoder: ilp\n":   "",
		"decoder: ILP\n":   `unknown decoder "ILP" (known: exact, ilp)`,
		"tasks: [sequence, segmentation]\ndecoder: ilp\n": "decoder ilp: the segmentation model has no ILP decoder",
	} {
		cfg, err := config.Parse([]byte(base+text), "d.yaml")
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
		if err == nil {
			u := unitSpec{Schema: store.SchemaVersion, Trainer: "perceptron", Curves: true, Decoder: cfg.UnitDecoder()}
			keys[text] = u.Key()
			b, _ := json.Marshal(u)
			if got := strings.Contains(string(b), `"curves":true,"decoder":"ilp"`); got != (cfg.Decoder == "ilp") {
				t.Errorf("%q: key JSON %s", text, b)
			}
		}
	}
	if keys[""] != keys["decoder: exact\n"] || keys[""] == keys["decoder: ilp\n"] {
		t.Errorf("keys %v: exact must be the default's, ilp another", keys)
	}
}
