package experiments

import (
	"context"
	"strings"
	"testing"
)

const pairsConfig = `name: pairs
seed: 1
datasets:
  - name: synthetic
    synthetic: {sequences: 30, labels: 3}
splits: {count: 1, train_fractions: [0.5]}
features: {PAIRS}
trainers:
  - {name: crf, C: [1]}
`

// features.pairs reaches the units: seen pairs are in the key and the
// trained model, while pairs: all gives the keys of leaving it out (the
// units of existing configs keep theirs).
func TestPairsReachUnits(t *testing.T) {
	t.Parallel()
	keys := map[string]string{}
	for _, pairs := range []string{"", "pairs: all", "pairs: seen"} {
		cfg := configFile(t, strings.Replace(pairsConfig, "PAIRS", pairs, 1))
		plan, err := Plan(context.Background(), cfg, Options{OutDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		keys[pairs] = plan[0].Key
		if want := map[string]string{"pairs: seen": "seen"}[pairs]; plan[0].Spec.Features.Pairs != want {
			t.Errorf("%q: unit features %+v, want pairs %q", pairs, plan[0].Spec.Features, want)
		}
		if pairs != "pairs: seen" {
			continue
		}
		dir := t.TempDir()
		if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Stdout: new(strings.Builder)}); err != nil {
			t.Fatal(err)
		}
		if runs := readRuns(t, dir); len(runs) != 1 || runs[0].Metrics["token_error"] >= 50 {
			t.Errorf("seen pairs: runs %+v", runs)
		}
	}
	if keys[""] != keys["pairs: all"] || keys[""] == keys["pairs: seen"] {
		t.Errorf("keys: default %s, all %s, seen %s: want the first two alike, the third apart", keys[""], keys["pairs: all"], keys["pairs: seen"])
	}
}

// epsilon_relative: true reaches the one-slack unit's trainer and key;
// false gives the keys of leaving it out.
func TestRelativeEpsilonReachesUnits(t *testing.T) {
	t.Parallel()
	keys := map[string]string{}
	for _, rel := range []string{"", ", epsilon_relative: false", ", epsilon_relative: true"} {
		text := strings.Replace(pairsConfig, "features: {PAIRS}\n", "", 1)
		text = strings.Replace(text, "{name: crf, C: [1]}", "{name: poslearn, C: [1], solver: one-slack"+rel+"}", 1)
		plan, err := Plan(context.Background(), configFile(t, text), Options{OutDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		keys[rel] = plan[0].Key
		v, err := plan[0].Spec.TrainerParams()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := v["epsilon_relative"], map[string]any{", epsilon_relative: true": true}[rel]; got != want {
			t.Errorf("%q: the trainer gets epsilon_relative %v, want %v", rel, got, want)
		}
	}
	if keys[""] != keys[", epsilon_relative: false"] || keys[""] == keys[", epsilon_relative: true"] {
		t.Errorf("keys %v: want unset and false alike, true apart", keys)
	}
}
