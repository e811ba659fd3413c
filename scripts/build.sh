#!/usr/bin/env bash
# Configures and builds hpp-rewrite (tool, examples, test configuration).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# HPP_UNITY_BUILD=OFF builds each source on its own (faster to rebuild one
# changed file, slower from scratch).
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHPP_UNITY_BUILD="${HPP_UNITY_BUILD:-ON}" >/dev/null
cmake --build "$root/build"
