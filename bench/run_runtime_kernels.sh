#!/usr/bin/env bash
#===- bench/run_runtime_kernels.sh - The runtime kernels vs anchors -------===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/run_runtime_kernels.sh GEN_DIR [BUILD_DIR]
#
# Builds (in parallel) and then runs, one at a time on an idle GPU, every
# benchmark of docs/benchmarks.md "Runtime kernels vs CUB" and "Split
# barriers":
#   algo_{reduce,scan,select,histogram}_bench --check   (GPU bits = CPU
#        reference's, many sizes and types), then timed against CUB;
#   reduce_bench (bench/reduce_cub.cu over GEN_DIR/warp_reduce.cu: the
#        rewritten reduction, its kernel launched raw, hpp::reduce, CUB);
#   channel_bench (GEN_DIR/bench/channel_workloads.cu: the paper's channel
#        reduction);
#   barrier_bench, grid_sync_bench (the split and wait-only barriers).
# GEN_DIR is what bench/make_gen.sh writes (only warp_reduce.cu and
# bench/channel_workloads.cu are used). Environment: HPP_KERNELS_N (default
# 2^28), HPP_KERNELS_RUNS (default 25), HPP_BARRIER_STEPS (10000),
# HPP_RUN_TIMEOUT (seconds per program, 600), and common.sh's NVCC,
# HPP_CUDA_ARCH. Exit status 0 when everything built, checked and ran.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

source "$(dirname "$0")/common.sh"
TIMEOUT=${HPP_RUN_TIMEOUT:-600}
N=${HPP_KERNELS_N:-268435456}
RUNS=${HPP_KERNELS_RUNS:-25}
STEPS=${HPP_BARRIER_STEPS:-10000}
status=0

build() { # NAME SOURCE [FLAGS...]
  local name=$1 src=$2
  shift 2
  if ! "$NVCC" "${FLAGS[@]}" "$@" "$src" -o "$BUILD/$name" \
    > "$BUILD/$name.log" 2>&1; then
    echo "*** $name: build failed" >&2
    cat "$BUILD/$name.log" >&2
    return 1
  fi
}

pids=()
for k in reduce scan select histogram; do
  build algo_${k}_bench "$ROOT/bench/algo_${k}_bench.cu" & pids+=($!)
done
build barrier_bench "$ROOT/bench/barrier_bench.cu" & pids+=($!)
build grid_sync_bench "$ROOT/bench/grid_sync_bench.cu" & pids+=($!)
build reduce_bench "$ROOT/bench/reduce_cub.cu" \
  "-DHPP_GENERATED=\"$GEN/warp_reduce.cu\"" & pids+=($!)
build channel_bench "$ROOT/bench/channel_bench.cu" \
  "-DHPP_GENERATED=\"$GEN/bench/channel_workloads.cu\"" & pids+=($!)
for p in "${pids[@]}"; do
  wait "$p" || status=1
done

run() { # NAME ARGS...
  local name=$1
  shift
  [ -x "$BUILD/$name" ] || return 0
  echo "=== $name $*"
  timeout "$TIMEOUT" "$BUILD/$name" "$@" || {
    echo "*** $name $*: exit status $?" >&2
    status=1
  }
}

for k in reduce scan select histogram; do
  run algo_${k}_bench --check
done
for k in reduce scan select histogram; do
  run algo_${k}_bench "$N" "$RUNS"
done
run reduce_bench "$N" "$RUNS"
run channel_bench "$N" "$RUNS"
run barrier_bench "$STEPS" "$RUNS"
run grid_sync_bench "$STEPS" "$RUNS"
exit $status
