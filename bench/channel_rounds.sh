#!/usr/bin/env bash
#===- bench/channel_rounds.sh - Channel and task benchmarks, A/B rounds ---===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/channel_rounds.sh GEN_DIR BUILD_DIR BASE_DIR [ROUNDS]
#
# On the device machine, with GEN_DIR made by bench/make_gen.sh: builds
# bench/channel_bench.cu and bench/task_bench.cu against this tree's
# runtime/ and include/ and against BASE_DIR's (another revision's, e.g.
# `git archive REV runtime include | tar -x -C base`), then runs ROUNDS
# (default 3) interleaved rounds, each program in its own process:
# channel_bench (the paper's reduction against CUB, write -> consumer
# latency) for the base, and for this runtime with HPP_LAUNCH_GRAPH unset,
# 0 and 1; task_bench (per-task overhead, two tasks) for the base, this
# runtime, and this runtime with HPP_DRIVER_LAUNCH=0. Prints the result
# lines of each run.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

USAGE="GEN_DIR BUILD_DIR BASE_DIR [ROUNDS]"
source "$(dirname "$0")/common.sh"
BASE=$(cd "${3:?usage: $0 $USAGE}" && pwd)
ROUNDS=${4:-3}
for d in runtime include; do
  [ -d "$BASE/$d" ] || { echo "usage: $0 $USAGE (no $BASE/$d)" >&2; exit 2; }
done
BASE_FLAGS=("${FLAGS[@]/#$ROOT\/runtime/$BASE/runtime}")
BASE_FLAGS=("${BASE_FLAGS[@]/#$ROOT\/include/$BASE/include}")

for v in new base; do
  f=("${FLAGS[@]}"); [ $v = base ] && f=("${BASE_FLAGS[@]}")
  "$NVCC" "${f[@]}" "-DHPP_GENERATED=\"$GEN/bench/channel_workloads.cu\"" \
    "$ROOT/bench/channel_bench.cu" -o "$BUILD/channel_bench_$v" &
  "$NVCC" "${f[@]}" "-DHPP_GENERATED=\"$GEN/bench/task_workloads.cu\"" \
    "$ROOT/bench/task_bench.cu" -o "$BUILD/task_bench_$v" &
done
wait || true
for b in channel_bench_new channel_bench_base task_bench_new task_bench_base; do
  [ -x "$BUILD/$b" ] || { echo "*** $b: build failed" >&2; exit 1; }
done

result() {
  grep -E '^(reduction|latency|per task|hpp extra|raw driver|two tasks of)'
}
for r in $(seq "$ROUNDS"); do
  echo "=== round $r base channel_bench"
  "$BUILD/channel_bench_base" 268435456 20 | result
  for g in auto 0 1; do
    echo "=== round $r HPP_LAUNCH_GRAPH=$g channel_bench"
    if [ $g = auto ]; then
      env -u HPP_LAUNCH_GRAPH "$BUILD/channel_bench_new" 268435456 20 | result
    else
      HPP_LAUNCH_GRAPH=$g "$BUILD/channel_bench_new" 268435456 20 | result
    fi
  done
  for v in base new; do
    echo "=== round $r $v task_bench"
    "$BUILD/task_bench_$v" 1000 60 | result
  done
  echo "=== round $r HPP_DRIVER_LAUNCH=0 task_bench"
  HPP_DRIVER_LAUNCH=0 "$BUILD/task_bench_new" 1000 60 | result
done
