#!/usr/bin/env bash
#===- bench/gpu_vs_cpu.sh - Rewritten examples on the GPU vs the CPU ------===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/gpu_vs_cpu.sh GEN_DIR [BUILD_DIR]
#
# On the device machine, with GEN_DIR made by bench/make_gen.sh: builds
# every GEN_DIR/*.cu, bench/warp_selftest.cpp and bench/reduce_cub.cu
# (against GEN_DIR/warp_reduce.cu) in parallel with
#   nvcc -std=c++17 -O3 -arch=$HPP_CUDA_ARCH -I runtime -I include
# runs each example (and its argument variants) and compares its output
# with the CPU reference runtime's at widths 32 and 64, runs the edges of
# GEN_DIR/edges (output and exit status as the reference's), runs the warp
# self-test, bench/task_bench.cu, bench/channel_bench.cu (the paper's
# channel reduction against CUB on 2^28 floats, and the predicate ->
# consumer latency), then the reduction benchmark $HPP_REDUCE_REPEATS
# times (default 3) on 2^28 floats. An example still running after
# $HPP_RUN_LIMIT seconds (default 120) is killed and reported as a hang.
# The runtime programs in RUNTIME_PROGRAMS (test/runtime/Inputs, already
# in the form hpp-rewrite emits) run on the GPU and on the runtime's CPU
# backend (built with $CXX, default g++), and their outputs must match.
# Exit status 0 when everything built, ran, and matched.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

USAGE="GEN_DIR [BUILD_DIR]   (GEN_DIR from bench/make_gen.sh)"
source "$(dirname "$0")/common.sh"
status=0

build() { # NAME ARGS...: builds BUILD/NAME; logs to BUILD/NAME.log
  local name=$1; shift
  "$NVCC" "${FLAGS[@]}" "$@" -o "$BUILD/$name" > "$BUILD/$name.log" 2>&1 ||
    { echo "*** $name: build failed"; cat "$BUILD/$name.log"; return 1; }
}
pids=()
for src in "$GEN"/*.cu; do
  build "$(basename "$src" .cu)" -x cu "$src" & pids+=($!)
done
build warp_selftest -x cu "$ROOT/bench/warp_selftest.cpp" & pids+=($!)
build reduce_bench "-DHPP_GENERATED=\"$GEN/warp_reduce.cu\"" \
  "$ROOT/bench/reduce_cub.cu" & pids+=($!)
build task_bench "-DHPP_GENERATED=\"$GEN/bench/task_workloads.cu\"" \
  "$ROOT/bench/task_bench.cu" & pids+=($!)
build channel_bench "-DHPP_GENERATED=\"$GEN/bench/channel_workloads.cu\"" \
  "$ROOT/bench/channel_bench.cu" & pids+=($!)
for src in "$GEN"/edges/*.cu; do
  [ -e "$src" ] || continue
  name=$(basename "$src" .cu)
  # shellcheck disable=SC2046 # the flags are words
  build "edge_$name" $(cat "$GEN/edges/$name.flags") -x cu "$src" & pids+=($!)
done
# NAME ARGS: a chain of a million tasks, half of it behind a failure.
RUNTIME_PROGRAMS=("task_long_chain 1000000")
for p in "${RUNTIME_PROGRAMS[@]}"; do
  read -r name _ <<< "$p"
  src=$ROOT/test/runtime/Inputs/$name.cpp
  build "rt_$name" -x cu "$src" & pids+=($!)
  { ${CXX:-g++} -std=c++17 -O2 -pthread -I "$ROOT/runtime" -I "$ROOT/include" \
      -x c++ "$src" -o "$BUILD/rt_$name.cpu" > "$BUILD/rt_$name.cpu.log" 2>&1 ||
    { echo "*** rt_$name.cpu: build failed"; cat "$BUILD/rt_$name.cpu.log"; false; }; } &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || status=1; done

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
echo "=== GPU output vs the CPU reference runtime"
compare() { # LABEL GPU_OUTPUT_FILE REFERENCE...
  local label=$1 out=$2; shift 2
  for ref in "$@"; do
    if ! diff -q "$out" "$ref" > /dev/null; then
      echo "DIFFERENT $label (vs $(basename "$ref")):"; cat "$out"; status=1
      return
    fi
  done
  echo "same   $label: $(cat "$out")"
}
# A program that hangs is killed and reported (HPP_RUN_LIMIT seconds).
limited() { timeout -s KILL "${HPP_RUN_LIMIT:-120}" "$@" || {
  local rc=$?; [ $rc -eq 137 ] && echo "*** $(basename "$1"): killed after ${HPP_RUN_LIMIT:-120} s (a hang)"
  return $rc; }; }
for src in "$GEN"/*.cu; do
  name=$(basename "$src" .cu)
  limited "$BUILD/$name" > "$BUILD/$name.out" 2>&1 || status=1
  compare "$name" "$BUILD/$name.out" "$GEN"/cpuref/"$name".[0-9][0-9].txt
done
for ref in "$GEN"/cpuref/*_*.txt; do
  base=$(basename "$ref" .txt)
  for src in "$GEN"/*.cu; do
    name=$(basename "$src" .cu)
    case "$base" in "$name"_[0-9]* | "$name"_full)
      args=${base#"$name"_}
      limited "$BUILD/$name" ${args//_/ } > "$BUILD/$base.out" 2>&1 || status=1
      compare "$name ${args//_/ }" "$BUILD/$base.out" "$ref" ;;
    esac
  done
done
# The edges: output (stdout and stderr) and exit status as the reference's.
for src in "$GEN"/edges/*.cu; do
  [ -e "$src" ] || continue
  name=$(basename "$src" .cu)
  { limited "$BUILD/edge_$name" 2>&1; echo "exit=$?"; } > "$BUILD/edge_$name.out"
  if diff -q "$BUILD/edge_$name.out" "$GEN/edges/$name.ref" > /dev/null; then
    echo "same   edge $name: $(grep -v '^exit=' "$BUILD/edge_$name.out" | tail -1)"
  else
    echo "DIFFERENT edge $name:"; diff "$GEN/edges/$name.ref" "$BUILD/edge_$name.out"
    status=1
  fi
done
for p in "${RUNTIME_PROGRAMS[@]}"; do
  read -r name args <<< "$p"
  limited "$BUILD/rt_$name.cpu" $args > "$BUILD/rt_$name.cpu.out" 2>&1 || status=1
  limited "$BUILD/rt_$name" $args > "$BUILD/rt_$name.out" 2>&1 || status=1
  compare "runtime program $name $args" "$BUILD/rt_$name.out" "$BUILD/rt_$name.cpu.out"
done
echo "=== warp_reduce 268435456"
"$BUILD/warp_reduce" 268435456 || status=1
echo "=== warp self-test"
"$BUILD/warp_selftest" | grep -E "PASSED|FAIL" || status=1
echo "=== task benchmark (enqueue overhead, two tasks)"
"$BUILD/task_bench" 1000 "${HPP_REDUCE_RUNS:-20}" || status=1
echo "=== channel benchmark (paper's channel reduction vs CUB, latency)"
"$BUILD/channel_bench" 268435456 "${HPP_REDUCE_RUNS:-20}" || status=1
for r in $(seq "${HPP_REDUCE_REPEATS:-3}"); do
  echo "=== reduction benchmark, run $r"
  "$BUILD/reduce_bench" 268435456 "${HPP_REDUCE_RUNS:-20}" || status=1
done
exit $status
