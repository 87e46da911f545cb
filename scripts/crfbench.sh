#!/usr/bin/env bash
# CRF speed, as ratios measured in one run (docs/performance.md, "The CRF's
# L-BFGS" and "Seen attribute–label pairs"): BenchmarkCRF/cora at the
# working tree and at BASE (default HEAD~1), the two test binaries
# alternated ROUNDS times (process CPU per L-BFGS iteration; commits before
# 886a5f0 report wall time only), then BenchmarkCRFsuite (full and seen
# model), which trains CRFsuite beside repro on one attribute file when
# CRFsuite is installed ($REPRO_CRFSUITE or crfsuite on PATH, its library on
# LD_LIBRARY_PATH; ../shared/peers/build-crfsuite.sh builds it): alternated
# with BASE's too where BASE has it, so that each round gives both builds'
# ratios to CRFsuite side by side.
# Usage: REPRO_DATA=../shared/datasets scripts/crfbench.sh [BASE] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD~1} rounds=${2:-4}
: "${REPRO_DATA:?set REPRO_DATA to the datasets directory}"
export REPRO_DATA
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q . "$work/base" && git -C "$work/base" checkout -q "$base"
go test -c -o "$work/new.test" ./experiments
(cd "$work/base" && go test -c -o "$work/base.test" ./experiments)
cd experiments
bench() { # bench BINARY-NAME PATTERN [FLAGS...]
  local v=$1 pattern=$2
  shift 2
  "$work/$v.test" -test.run '^$' -test.bench "$pattern" -test.benchtime 3x -test.cpu 1 "$@" |
    grep -E '^Benchmark|crfsuite_bench_test' | sed "s/^/$v /"
}
for _ in $(seq "$rounds"); do
  for v in base new; do bench "$v" 'BenchmarkCRF/cora$'; done
done
peers=new
if "$work/base.test" -test.list 'BenchmarkCRFsuite$' | grep -q .; then peers="base new"; fi
for _ in $(seq "$rounds"); do
  for v in $peers; do bench "$v" 'BenchmarkCRFsuite$' -test.v; done
done
