#!/usr/bin/env bash
# Configures and builds hpp-rewrite-fuzzer (libFuzzer, ASan, UBSan; clang 19
# and Debian's libclang-rt-19-dev) in build/fuzz, for the smoke run of
# test/fuzz and for longer runs (docs/guide.md, "Fuzzing"). With --tool,
# also the sanitized hpp-rewrite there (scripts/fuzz-warpgen.sh --tool).
# HPP_FUZZER_OPT (default -O1) sets the optimization level;
# HPP_FUZZER_LINE_TABLES=OFF leaves out the line tables (reports name the
# functions, not the lines; a fifth less to compile).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
targets=(hpp-rewrite-fuzzer)
[ "${1:-}" != --tool ] || targets+=(hpp-rewrite)
"$root/scripts/install-deps.sh"
CXX=clang++-19 cmake -S "$root" -B "$root/build/fuzz" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DHPP_BUILD_FUZZER=ON -DBUILD_TESTING=OFF \
  -DHPP_UNITY_BUILD="${HPP_UNITY_BUILD:-ON}" \
  -DHPP_FUZZER_OPT="${HPP_FUZZER_OPT:--O1}" \
  -DHPP_FUZZER_LINE_TABLES="${HPP_FUZZER_LINE_TABLES:-ON}" >/dev/null
cmake --build "$root/build/fuzz" --target "${targets[@]}"
