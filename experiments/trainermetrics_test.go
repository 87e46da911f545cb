package experiments

import (
	"maps"
	"testing"

	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/trainers"
)

// A unit reports a trainer's working set where the trainer has one (it
// reports the set's support), whatever else it counts in Constraints (the
// online trainers' updates), and only the metrics its task declares.
func TestTrainerMetrics(t *testing.T) {
	t.Parallel()
	seq := metrics.ForTask("sequence").Metrics
	tests := []struct {
		name     string
		stats    trainers.Stats
		declared []string
		want     map[string]float64
	}{
		{"cutting plane", trainers.Stats{Constraints: 2824, Support: 900, SupportLoss: 1.02}, seq,
			map[string]float64{metrics.Constraints: 2824, metrics.SupportLoss: 1.02}},
		{"perceptron's updates", trainers.Stats{Constraints: 294}, seq, map[string]float64{}},
		{"undeclared", trainers.Stats{Constraints: 2824, Support: 900, SupportLoss: 1.02}, metrics.ForTask("parsing").Metrics, map[string]float64{}},
	}
	for _, tt := range tests {
		if got := trainerMetrics(&trainers.Result{Stats: tt.stats}, tt.declared); !maps.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
