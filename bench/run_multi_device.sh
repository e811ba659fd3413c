#!/usr/bin/env bash
#===- bench/run_multi_device.sh - The device runtime on several GPUs -----===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/run_multi_device.sh [BUILD_DIR]
#
# Builds bench/multi_device_bench.cu (the paper's matmul split by row
# blocks over 1, 2 and 4 GPUs, two task pipelines on one GPU against one
# per GPU, a cross-device task dependency against raw events) and runs it
# on the GPUs of this host; the rows that need more GPUs than there are
# print "skipped". Environment: HPP_MULTI_N (matmul size, default 8192),
# HPP_MULTI_RUNS (timed runs, default 10), HPP_MULTI_STEPS (tasks per
# pipeline, default 8), HPP_RUN_TIMEOUT (seconds, 600), NVCC,
# HPP_CUDA_ARCH (default sm_90). Exit status 0 when it built, ran and
# every row checked.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build/gpu}
mkdir -p "$BUILD"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${HPP_CUDA_ARCH:-sm_90}

if ! "$NVCC" -std=c++17 -O3 -arch="$ARCH" -I "$ROOT/runtime" \
  -I "$ROOT/include" "$ROOT/bench/multi_device_bench.cu" \
  -o "$BUILD/multi_device_bench" > "$BUILD/multi_device_bench.log" 2>&1; then
  echo "*** multi_device_bench: build failed" >&2
  cat "$BUILD/multi_device_bench.log" >&2
  exit 1
fi
nvidia-smi -L 2> /dev/null || true
timeout "${HPP_RUN_TIMEOUT:-600}" "$BUILD/multi_device_bench" \
  "${HPP_MULTI_N:-8192}" "${HPP_MULTI_RUNS:-10}" "${HPP_MULTI_STEPS:-8}"
