#===- bench/common.sh - Shared set-up of the GPU bench scripts ------------===#
#
# Part of hpp-rewrite. Benchmark. Sourced (not run) by the bench/*.sh
# scripts that build generated sources with nvcc, after they set USAGE.
#
# Takes GEN_DIR [BUILD_DIR] from the script's arguments ("$@") and sets
#   ROOT   the repository;
#   GEN    GEN_DIR, absolute (must exist);
#   BUILD  BUILD_DIR, absolute, created (default ROOT/build/gpu);
#   NVCC   $NVCC, else nvcc on PATH, else /usr/local/cuda/bin/nvcc;
#   FLAGS  -std=c++17 -O3 -arch=$HPP_CUDA_ARCH (default sm_90) -I runtime
#          -I include.
#
#===----------------------------------------------------------------------===#

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 ${USAGE:-GEN_DIR [BUILD_DIR]}" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GEN=$(cd "$1" && pwd)
BUILD=${2:-$ROOT/build/gpu}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
if [ -z "${NVCC:-}" ]; then
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
fi
FLAGS=(-std=c++17 -O3 -arch="${HPP_CUDA_ARCH:-sm_90}" -I "$ROOT/runtime"
       -I "$ROOT/include")
