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
		if want := map[string]string{"pairs: seen": pairsSeen}[pairs]; plan[0].Spec.Features.Pairs != want {
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
