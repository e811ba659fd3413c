#!/usr/bin/env bash
# The main job on a bundled example: rewrite examples/matmul.cpp into
# portable HIP/CUDA, print it, and run the same example on the CPU runtime.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" hpp-rewrite example_matmul
mkdir -p "$root/build/gen"
echo "==== hpp-rewrite examples/matmul.cpp ===================================="
"$root/build/tools/hpp-rewrite/hpp-rewrite" "$root/examples/matmul.cpp" \
  -o "$root/build/gen/matmul.cpp"
cat "$root/build/gen/matmul.cpp"
echo "==== the dialect program on the CPU reference runtime ===================="
"$root/build/examples/example_matmul" 128
echo "==== the rewritten program, CPU backend of the device runtime ============"
"${CXX:-clang++-19}" -std=c++17 -O2 -pthread -I"$root/runtime" -I"$root/include" \
  "$root/build/gen/matmul.cpp" -o "$root/build/gen/matmul"
"$root/build/gen/matmul" 128
echo "(build the same file for a GPU with: nvcc -std=c++17 -arch=sm_90 -x cu" \
     "-I runtime -I include build/gen/matmul.cpp, or hipcc --offload-arch=gfx90a ...)"
