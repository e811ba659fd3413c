#!/usr/bin/env bash
# Configures and builds hpp-rewrite (tool, examples, test configuration):
# everything, or only the targets named (scripts/build.sh hpp-rewrite).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# HPP_UNITY_BUILD=OFF builds each source on its own (faster to rebuild one
# changed file, slower from scratch).
# clang 19 by default: it compiles the library in two thirds of g++'s time
# (docs/benchmarks.md, "The test suite's time"); CXX=g++ works as well. A
# build directory keeps the compiler it was configured with.
if [ ! -f "$root/build/CMakeCache.txt" ]; then
  export CXX="${CXX:-clang++-19}"
fi
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHPP_UNITY_BUILD="${HPP_UNITY_BUILD:-ON}" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build "$root/build" --target "$@"
else
  cmake --build "$root/build"
fi
