#!/usr/bin/env bash
#===- bench/make_gen.sh - Rewrite the examples and record CPU references --===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/make_gen.sh [GEN_DIR] [BUILD_DIR]
#
# Rewrites every examples/*.cpp with BUILD_DIR's hpp-rewrite (default
# build/) into GEN_DIR/<name>.cu (default gen/), and runs each dialect
# program on the CPU reference runtime at HPP_CPU_MVECTOR=32 and 64,
# writing GEN_DIR/cpuref/<name>.<width>.txt (only .32 for a program that is
# right on NVIDIA but wrong at 64 as written), plus the argument variants
# listed in VARIANTS (GEN_DIR/cpuref/<name>_<args>.txt, at width 64; each
# must print the same at 32), and the edges in EDGES (GEN_DIR/edges).
# Carry GEN_DIR to the device machine and run bench/gpu_vs_cpu.sh there.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=${1:-$ROOT/gen}
BUILD=${2:-$ROOT/build}
CXX=${CXX:-g++}
VARIANTS=("warp_reduce 1000003" "segmented_reduce 300 10"
          "stream_compaction 1000003" "warp_scan 1000003"
          "barrier_steps 100 16384 256" "task_join 77" "task_chain 550"
          "task_matmul 37" "task_error full" "device_errors full")

mkdir -p "$GEN/cpuref"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The edges (issue 27): dialect programs of the tests whose meaning on the
# GPU no CPU run shows (a failed task's dropped future before a
# parallelFor, a channel destroyed with a writer pending, huge channel
# capacities, Task<bool>, joins of joins, ranges no launch can have,
# build-dependent constants, macros restated around kernels, declaration
# forms, linkage blocks): NAME SOURCE [FLAGS...]. Each is rewritten to
# GEN/edges/NAME.cu; GEN/edges/NAME.ref holds what the reference prints
# (stdout and stderr) and its exit status, GEN/edges/NAME.flags the flags
# both are built with.
EDGES=("orphan_then_parallel_for test/runtime/Inputs/orphan_then_parallel_for.cpp"
       "channel_destroyed test/runtime/Inputs/channel_destroyed.cpp"
       "big_capacity test/runtime/Inputs/big_capacity.cpp"
       "bool_task test/runtime/Inputs/bool_task.cpp"
       "join_of_joins test/runtime/Inputs/join_of_joins.cpp"
       "range_errors test/runtime/Inputs/range_errors.cpp"
       "build_dependent_constants test/rewrite/build-dependent-constants.cpp"
       "build_dependent_constants_flags test/rewrite/build-dependent-constants.cpp -DHPPN=5 -DNDEBUG -DWIDE"
       "macro_restate test/rewrite/macro-restate.cpp"
       "declaration_forms test/rewrite/declaration-forms.cpp"
       "channel_darray_paper_order test/rewrite/channel-darray-paper-order.cpp")

# Programs whose host code needs a compiled-in width (-DHPP_CPU_MVECTOR).
needs_width() { grep -q 'segmentedSum<MVECTOR_SIZE' "$1"; }

for src in "$ROOT"/examples/*.cpp; do
  name=$(basename "$src" .cpp)
  echo "=== $name"
  if ! "$BUILD/tools/hpp-rewrite/hpp-rewrite" "$src" -o "$GEN/$name.cu" 2> "$TMP/$name.err"; then
    echo "    refused (not lowered): $(grep -m1 "error:" "$TMP/$name.err")"
    continue
  fi
  for w in 32 64; do
    flags=()
    if needs_width "$src"; then flags=(-DHPP_CPU_MVECTOR=$w); fi
    "$CXX" -std=c++17 -O2 -pthread -I "$ROOT/include" "${flags[@]}" "$src" \
      -o "$TMP/$name.$w"
    # Width 64 may fail: code that is right on NVIDIA only (below).
    HPP_CPU_MVECTOR=$w "$TMP/$name.$w" > "$GEN/cpuref/$name.$w.txt" ||
      [ "$w" = 64 ]
  done
  # Code that is right on NVIDIA only (wrong at 64 as written): the
  # rewritten program must print what the dialect prints at 32.
  if ! cmp -s "$GEN/cpuref/$name.32.txt" "$GEN/cpuref/$name.64.txt"; then
    echo "    $name is wrong at 64 as written: its reference is width 32's"
    rm "$GEN/cpuref/$name.64.txt"
  fi
done
for v in "${VARIANTS[@]}"; do
  read -r name args <<< "$v"
  out="$GEN/cpuref/${name}_${args// /_}.txt"
  HPP_CPU_MVECTOR=64 "$TMP/$name.64" $args > "$out"
  HPP_CPU_MVECTOR=32 "$TMP/$name.32" $args | diff "$out" -
done
# The dialect sides of bench/task_bench.cu and bench/channel_bench.cu (not
# examples: no reference run).
mkdir -p "$GEN/bench"
for w in task_workloads channel_workloads; do
  "$BUILD/tools/hpp-rewrite/hpp-rewrite" "$ROOT/bench/$w.cpp" \
    -o "$GEN/bench/$w.cu"
done
mkdir -p "$GEN/edges"
for e in "${EDGES[@]}"; do
  read -r name src flags <<< "$e"
  echo "=== edge $name"
  "$BUILD/tools/hpp-rewrite/hpp-rewrite" "$ROOT/$src" -o "$GEN/edges/$name.cu"
  "$CXX" -std=c++17 -O2 -pthread -I "$ROOT/include" $flags "$ROOT/$src" \
    -o "$TMP/edge_$name"
  echo "$flags" > "$GEN/edges/$name.flags"
  { "$TMP/edge_$name" 2>&1; echo "exit=$?"; } > "$GEN/edges/$name.ref"
done
echo "=== $GEN: $(ls "$GEN"/*.cu | wc -l) rewritten sources, CPU references in $GEN/cpuref; $(ls "$GEN"/edges/*.cu | wc -l) edges in $GEN/edges"
