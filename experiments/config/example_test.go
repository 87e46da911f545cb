package config_test

import (
	"fmt"

	"github.com/maxmargin/repro/experiments/config"
)

func ExampleParse() {
	_, err := config.Parse([]byte(`
datasets: [{name: cora}]
trainers:
  - name: poslearn
    C: [0.1, 1]
    epsilonn: 0.01
`), "exp.yaml")
	fmt.Println(err)
	// Output:
	// exp.yaml:6: trainers[0].epsilonn: unknown key (did you mean "epsilon"?) (valid keys here: C, C_per_example, average, beta, criterion, delta, delta_loss, drop_idle, epochs, epsilon, epsilon_relative, gap, grid, k, label, loss_scale, max_iterations, name, period, predict, qp_tolerance, rare, rescaling, restarts, slack_penalty, smoothing, solver, stop, threads)
}
