package experiments

import (
	"context"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/trainers"
)

// slackConfig is smallConfig with slack entries: one leaving the criterion
// out, one per criterion spelled out.
const slackConfig = `name: small
seed: 5
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3, min_len: 4, max_len: 8}
splits:
  count: 2
  train_fractions: [0.5]
trainers:
  - {name: slack, label: unset, C: [0.1, 1]}
  - {name: slack, label: h, criterion: tsochantaridis, C: [0.1, 1]}
  - {name: slack, label: eq1, criterion: sarawagi-gupta, C: [0.1, 1]}
`

// A config's slack criterion reaches the unit: eq. (1) units carry it in
// their spec, key and trainer params, while spelling out the default gives
// the keys of leaving it out (the units of existing configs keep theirs).
// Catches a criterion that the config accepts but the plan drops, which
// would also make both criteria share cached units.
func TestSlackCriterionReachesUnits(t *testing.T) {
	t.Parallel()
	plan, err := Plan(context.Background(), configFile(t, slackConfig), Options{OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string][]string{}
	for _, p := range plan {
		if p.Phase != store.PhaseValidate {
			continue
		}
		keys[p.Label] = append(keys[p.Label], p.Key)
		v, err := p.Spec.TrainerParams()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"eq1": trainers.CriterionSarawagiGupta}[p.Label]
		got, _ := p.Spec.Params["criterion"].(string)
		if got != want || (want != "") != (v["criterion"] == want) {
			t.Errorf("%s unit: spec criterion %q, trainer params %v; want %q", p.Label, got, v, want)
		}
	}
	if len(keys["unset"]) == 0 || strings.Join(keys["unset"], ",") != strings.Join(keys["h"], ",") {
		t.Errorf("keys without a criterion %v, with tsochantaridis %v: want the same", keys["unset"], keys["h"])
	}
	for i, k := range keys["eq1"] {
		if k == keys["unset"][i] {
			t.Errorf("eq. (1) unit %d shares key %s with the default criterion's", i, k)
		}
	}
}

// An unknown criterion, eq. (1) with the one-slack solver and a criterion
// for another trainer are refused before anything trains: by the config's
// keys, or by the trainer's Check when the run is planned.
func TestSlackCriterionRefusedBeforeTraining(t *testing.T) {
	t.Parallel()
	for _, entry := range []string{
		"{name: slack, criterion: sarawagi, C: [1]}",
		"{name: slack, criterion: sarawagi-gupta, solver: one-slack, C: [1]}",
		"{name: margin, label: m2, criterion: sarawagi-gupta, C: [1]}",
	} {
		text := strings.Replace(smallConfig, "compare:", "  - "+entry+"\ncompare:", 1)
		cfg, err := config.Parse([]byte(text), "small.yaml")
		if err == nil {
			_, err = Plan(context.Background(), cfg, Options{OutDir: t.TempDir()})
		}
		if err == nil || !strings.Contains(err.Error(), "criterion") {
			t.Errorf("%s: error %v, want one naming criterion", entry, err)
		}
	}
}
