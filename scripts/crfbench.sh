#!/usr/bin/env bash
# CRF speed, as ratios measured in one run (docs/performance.md, "The CRF's
# L-BFGS"): BenchmarkCRF/cora at the working tree and at BASE (default
# HEAD~1), the two test binaries alternated ROUNDS times (process CPU per
# L-BFGS iteration; commits before 886a5f0 report wall time only), then
# BenchmarkCRFsuite, which trains CRFsuite beside repro on one attribute
# file when CRFsuite is installed ($REPRO_CRFSUITE or crfsuite on PATH, its
# library on LD_LIBRARY_PATH; ../shared/peers/build-crfsuite.sh builds it).
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
for _ in $(seq "$rounds"); do
  for v in base new; do
    "$work/$v.test" -test.run '^$' -test.bench 'BenchmarkCRF/cora$' -test.benchtime 3x -test.cpu 1 |
      grep '^Benchmark' | sed "s/^/$v /"
  done
done
"$work/new.test" -test.run '^$' -test.bench 'BenchmarkCRFsuite$' -test.benchtime 3x -test.cpu 1 -test.count "$rounds" -test.v |
  grep -E '^Benchmark|crfsuite_bench_test'
