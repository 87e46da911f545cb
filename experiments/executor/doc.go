// Package executor holds the executors that run the runner's units
// elsewhere than on its own goroutines (experiments.LocalExecutor):
// ProcessExecutor, one `repro unit` child process per unit, and Slurm,
// which submits the units as job arrays and is the executor of the run
// that collects them from the store. All implement experiments.Executor;
// they decide where and when a unit runs, never what it computes, and the
// runner reads every result back from the store.
package executor
