package experiments

import (
	"maps"
	"testing"
	"time"

	"github.com/maxmargin/repro/internal/cputime"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/trainers"
)

// A unit reports a trainer's working set where the trainer has one (it
// reports the set's support), whatever else it counts in Constraints (the
// online trainers' updates), its QP's time where it ran one, as a share of
// the CPU time when the QP's is CPU time too, else of the wall-clock time,
// and only the metrics its task declares.
func TestTrainerMetrics(t *testing.T) {
	t.Parallel()
	seq := metrics.ForTask("sequence").Metrics
	cfg := metrics.ForTask("cfg").Metrics
	cost := cputime.Timing{Wall: 4, CPU: 2}
	tests := []struct {
		name     string
		stats    trainers.Stats
		cost     cputime.Timing
		declared []string
		want     map[string]float64
	}{
		{"cutting plane", trainers.Stats{Constraints: 2824, Support: 900, SupportLoss: 1.02}, cost, seq,
			map[string]float64{metrics.Constraints: 2824, metrics.SupportLoss: 1.02}},
		{"perceptron's updates", trainers.Stats{Constraints: 294}, cost, seq, map[string]float64{}},
		{"undeclared", trainers.Stats{Constraints: 2824, Support: 900, SupportLoss: 1.02}, cost, metrics.ForTask("parsing").Metrics, map[string]float64{}},
		{"QP in CPU time", trainers.Stats{Constraints: 300, Support: 250, QPTime: 500 * time.Millisecond, QPTimeCPU: true}, cost, cfg,
			map[string]float64{metrics.Constraints: 300, metrics.QPSeconds: 0.5, metrics.QPShare: 25}},
		{"QP in wall time", trainers.Stats{Constraints: 300, Support: 250, QPTime: time.Second}, cost, cfg,
			map[string]float64{metrics.Constraints: 300, metrics.QPSeconds: 1, metrics.QPShare: 25}},
		{"no CPU time for the unit", trainers.Stats{Support: 1, QPTime: time.Second, QPTimeCPU: true}, cputime.Timing{Wall: 2}, cfg,
			map[string]float64{metrics.Constraints: 0, metrics.QPSeconds: 1, metrics.QPShare: 50}},
		{"rounding above the whole", trainers.Stats{Support: 1, QPTime: 2001 * time.Millisecond, QPTimeCPU: true}, cost, cfg,
			map[string]float64{metrics.Constraints: 0, metrics.QPSeconds: 2.001, metrics.QPShare: 100}},
		{"no QP", trainers.Stats{}, cost, cfg, map[string]float64{}},
		{"QP undeclared", trainers.Stats{QPTime: time.Second, QPTimeCPU: true}, cost, seq, map[string]float64{}},
	}
	for _, tt := range tests {
		if got := trainerMetrics(&trainers.Result{Stats: tt.stats}, tt.cost, tt.declared); !maps.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
