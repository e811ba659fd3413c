#!/usr/bin/env bash
#===- bench/run_gpu.sh - Build and run rewritten sources on an NVIDIA GPU -===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/run_gpu.sh GEN_DIR [BUILD_DIR]
#
# Builds every rewritten source in GEN_DIR (*.cu, *.cpp, *.hip) with
#   nvcc -std=c++17 -O3 -arch=$HPP_CUDA_ARCH -x cu -I runtime -I include
# and runs it; then builds bench/matmul_cuda.cu against GEN_DIR/matmul.*
# (or, if there is none, the stand-in bench/matmul_standin.cu) and runs it
# (arguments: $HPP_MATMUL_N, default 2048; $HPP_MATMUL_RUNS, default 20).
#
# Environment: HPP_PREFETCH (see runtime/hpp/launch.h) is passed on; NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc),
# HPP_CUDA_ARCH (default sm_90), HPP_RUN_TIMEOUT (seconds per program,
# default 600).
# Exit status: 0 when everything built, ran and exited 0.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

source "$(dirname "$0")/common.sh"
TIMEOUT=${HPP_RUN_TIMEOUT:-600}

failed=()
passed=()

# run NAME CMD...: runs a command, records the outcome under NAME.
run() {
  local name=$1
  shift
  local rc=0
  timeout "$TIMEOUT" "$@" || rc=$?
  if [ "$rc" -eq 0 ]; then
    passed+=("$name")
  else
    echo "*** $name: exit status $rc" >&2
    failed+=("$name")
  fi
}

matmul_src=""
shopt -s nullglob
for src in "$GEN"/*.cu "$GEN"/*.cpp "$GEN"/*.hip; do
  base=$(basename "$src")
  name=${base%.*}
  case "$name" in
  matmul) matmul_src=$src ;;
  esac
  echo "=== $base"
  if "$NVCC" "${FLAGS[@]}" -x cu "$src" -o "$BUILD/$name"; then
    run "$base" "$BUILD/$name"
  else
    echo "*** $base: build failed" >&2
    failed+=("$base (build)")
  fi
done
shopt -u nullglob

echo "=== matmul benchmark"
if [ -n "$matmul_src" ]; then
  generated=$matmul_src
else
  generated=$ROOT/bench/matmul_standin.cu
  echo "(no $GEN/matmul.*: timing the stand-in $generated)"
fi
if "$NVCC" "${FLAGS[@]}" "-DHPP_GENERATED=\"$generated\"" \
  "$ROOT/bench/matmul_cuda.cu" -o "$BUILD/matmul_bench"; then
  run "matmul benchmark" "$BUILD/matmul_bench" "${HPP_MATMUL_N:-2048}" \
    "${HPP_MATMUL_RUNS:-20}"
else
  echo "*** matmul benchmark: build failed" >&2
  failed+=("matmul benchmark (build)")
fi

echo "=== summary: ${#passed[@]} passed, ${#failed[@]} failed"
if [ "${#failed[@]}" -gt 0 ]; then
  printf '  failed: %s\n' "${failed[@]}"
  exit 1
fi
