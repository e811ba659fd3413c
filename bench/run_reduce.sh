#!/usr/bin/env bash
#===- bench/run_reduce.sh - Rewritten warp_reduce vs CUB on an NVIDIA GPU -===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/run_reduce.sh GEN_DIR [BUILD_DIR]
#
# GEN_DIR holds the sources hpp-rewrite produced (as for bench/run_gpu.sh);
# its warp_reduce.cu (or .cpp, .hip), from examples/warp_reduce.cpp, is
#  1. built on its own with
#       nvcc -std=c++17 -O3 -arch=$HPP_CUDA_ARCH -x cu -I runtime -I include
#     and run at n = $HPP_REDUCE_N (the example checks its own sum);
#  2. #included by bench/reduce_cub.cu, which times its reduceSum() against
#     cub::DeviceReduce::Sum and a device-to-device cudaMemcpyAsync of the
#     same bytes, in one process (arguments: $HPP_REDUCE_N, default 2^28
#     floats; $HPP_REDUCE_RUNS, default 20), and checks the sums.
#
# Environment: HPP_PREFETCH (see runtime/hpp/launch.h) is passed on; NVCC
# (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc), HPP_CUDA_ARCH
# (default sm_90), HPP_RUN_TIMEOUT (seconds per program, default 600).
# Exit status: 0 when both built, ran and exited 0.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

source "$(dirname "$0")/common.sh"
TIMEOUT=${HPP_RUN_TIMEOUT:-600}
N=${HPP_REDUCE_N:-268435456}
RUNS=${HPP_REDUCE_RUNS:-20}

generated=""
for ext in cu cpp hip; do
  if [ -f "$GEN/warp_reduce.$ext" ]; then
    generated=$GEN/warp_reduce.$ext
    break
  fi
done
if [ -z "$generated" ]; then
  echo "$0: no warp_reduce.cu, .cpp or .hip in $GEN" >&2
  exit 2
fi

status=0

echo "=== $(basename "$generated") n=$N"
if "$NVCC" "${FLAGS[@]}" -x cu "$generated" -o "$BUILD/warp_reduce"; then
  timeout "$TIMEOUT" "$BUILD/warp_reduce" "$N" || {
    echo "*** warp_reduce: exit status $?" >&2
    status=1
  }
else
  echo "*** warp_reduce: build failed" >&2
  status=1
fi

echo "=== reduce benchmark"
if "$NVCC" "${FLAGS[@]}" "-DHPP_GENERATED=\"$generated\"" \
  "$ROOT/bench/reduce_cub.cu" -o "$BUILD/reduce_bench"; then
  timeout "$TIMEOUT" "$BUILD/reduce_bench" "$N" "$RUNS" || {
    echo "*** reduce benchmark: exit status $?" >&2
    status=1
  }
else
  echo "*** reduce benchmark: build failed" >&2
  status=1
fi

exit $status
