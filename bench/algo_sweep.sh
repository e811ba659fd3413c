#!/usr/bin/env bash
#===- bench/algo_sweep.sh - Variants of the scan kernel --------------------===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/algo_sweep.sh OUT_DIR [N=268435456] [RUNS=25]
#
# Builds, in parallel (nproc jobs), bench/algo_BENCH_bench.cu (scan) once
# per variant below, each with its -D flags (the macros of
# runtime/hpp/backend/gpu_scan.h, gpu_scan_lookback.h and
# include/hpp/core/algorithm_order.h), into OUT_DIR; runs `algo_scan_bench
# --check` of the default build (every type, operator and size of
# bench/algo_reduce_scan.cuh, reduce and scans, bit for bit against the CPU
# reference) while the others build, then that of sD-direct; then runs each
# binary once, one at a time, on N floats, RUNS rounds, and prints one line
# per variant: hpp's median (events), its ratio to CUB (> 1: faster), the
# blocking call's ratio to CUB + cudaStreamSynchronize (host clock), and
# whether its result is bit-identical to the reference (every run checks
# its own 2^28 result). Logs: OUT_DIR/NAME.{build,run}.log.
# Environment: NVCC (default nvcc on PATH, else /usr/local/cuda/bin/nvcc),
# HPP_CUDA_ARCH (default sm_90). Exit status 0 when every build, both checks
# and every run succeeded.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 OUT_DIR [N] [RUNS]" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$1
N=${2:-268435456}
RUNS=${3:-25}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
FLAGS=(-std=c++17 -O3 -arch="${HPP_CUDA_ARCH:-sm_90}" -I "$ROOT/runtime"
  -I "$ROOT/include" -Xptxas -v)
mkdir -p "$OUT"

# NAME BENCH FLAGS: the defaults first (s0); each other variant changes what
# its name says (see the macros' comments): D direct loads and stores, DL
# direct loads only, DS direct stores only, DH direct with the loads stashed
# in shared memory; -i32: 256 x 32 tiles, 5 work-groups an SM.
VARIANTS=(
  "s0-default      scan   "
  "sD-direct       scan   -DHPP_SCAN_DIRECT=1"
  "sDL-dload       scan   -DHPP_SCAN_DIRECT_LOAD=1"
  "sDS-dstore      scan   -DHPP_SCAN_DIRECT_STORE=1"
  "sDH-dstash      scan   -DHPP_SCAN_DIRECT=1 -DHPP_SCAN_DIRECT_STASH=1"
  "s0-i32          scan   -DHPP_SCAN_ITEMS=32 -DHPP_SCAN_MINBLOCKS=5"
  "sD-i32          scan   -DHPP_SCAN_ITEMS=32 -DHPP_SCAN_MINBLOCKS=5 -DHPP_SCAN_DIRECT=1"
  "sDL-i32         scan   -DHPP_SCAN_ITEMS=32 -DHPP_SCAN_MINBLOCKS=5 -DHPP_SCAN_DIRECT_LOAD=1"
  "sDS-i32         scan   -DHPP_SCAN_ITEMS=32 -DHPP_SCAN_MINBLOCKS=5 -DHPP_SCAN_DIRECT_STORE=1"
)

status=0
JOBS=$(nproc 2>/dev/null || echo 4)

build() { # NAME BENCH FLAGS...
  local name=$1 bench=$2
  shift 2
  if "$NVCC" "${FLAGS[@]}" "$@" "$ROOT/bench/algo_${bench}_bench.cu" \
    -o "$OUT/$name" > "$OUT/$name.build.log" 2>&1; then
    echo "built $name"
  else
    echo "BUILD FAILED $name (see $OUT/$name.build.log)"
  fi
}

# The default scan build first: its --check runs while the rest build.
read -r name bench flags <<< "${VARIANTS[0]}"
build "$name" "$bench" $flags
CHECK_PID=
if [ -x "$OUT/$name" ]; then
  "$OUT/$name" --check > "$OUT/check.log" 2>&1 &
  CHECK_PID=$!
fi
for V in "${VARIANTS[@]}"; do
  read -r name bench flags <<< "$V"
  [ "$name" = s0-default ] && continue
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 1; done
  build "$name" "$bench" $flags &
done
for P in $(jobs -rp); do
  [ "$P" = "$CHECK_PID" ] || wait "$P"
done
if [ -n "$CHECK_PID" ]; then
  wait "$CHECK_PID"
  echo "check (default reduce and scans): $(tail -1 "$OUT/check.log")"
  grep -q ", 0 failed" "$OUT/check.log" || status=1
else
  echo "check: no default build"
  status=1
fi
# The direct build's --check too (full tiles take the direct path).
if [ -x "$OUT/sD-direct" ]; then
  "$OUT/sD-direct" --check > "$OUT/check-sD.log" 2>&1
  echo "check (sD-direct scans): $(tail -1 "$OUT/check-sD.log")"
  grep -q ", 0 failed" "$OUT/check-sD.log" || status=1
else
  echo "check: no sD-direct build"
  status=1
fi

# The timed runs, one at a time; one line each.
field() { # LOG VERSION: "median ms ratio" of that version's line
  grep -m1 "^$2" "$1" |
    sed -n 's/.*median *\([0-9.]*\) ms.*ratio to CUB \([0-9.]*\).*/\1 \2/p'
}
printf "%-15s %-6s %10s %8s %9s %-13s %s\n" variant bench "hpp ms" "x CUB" \
  "blocking" bits flags
for V in "${VARIANTS[@]}"; do
  read -r name bench flags <<< "$V"
  if [ ! -x "$OUT/$name" ]; then
    printf "%-15s %-6s %s\n" "$name" "$bench" "not built"
    status=1
    continue
  fi
  timeout 300 "$OUT/$name" "$N" "$RUNS" > "$OUT/$name.run.log" 2>&1
  rc=$?
  if [ "$bench" = reduce ]; then
    read -r ms ratio <<< "$(field "$OUT/$name.run.log" "hpp reduceAsync")"
    read -r bms _ <<< "$(field "$OUT/$name.run.log" "hpp::reduce")"
  else
    read -r ms ratio <<< "$(field "$OUT/$name.run.log" "hpp scanAsync")"
    read -r bms _ <<< "$(field "$OUT/$name.run.log" "hpp::inclusiveScan")"
  fi
  read -r cms _ <<< "$(field "$OUT/$name.run.log" "cub + cudaStreamSync")"
  # The blocking call against CUB + cudaStreamSynchronize (host clock).
  blocking=$(awk -v c="${cms:-0}" -v b="${bms:-0}" \
    'BEGIN { if (b > 0) printf "%.4f", c / b; else print "-" }')
  bits=$(grep -q "MISMATCH" "$OUT/$name.run.log" && echo MISMATCH ||
    { [ $rc -eq 0 ] && echo bit-identical || echo "exit $rc"; })
  [ $rc -eq 0 ] || status=1
  printf "%-15s %-6s %10s %8s %9s %-13s %s\n" "$name" "$bench" "${ms:--}" \
    "${ratio:--}" "${blocking:--}" "$bits" "${flags:-(defaults)}"
done

# Registers and spills of the hpp kernels (float, Plus), per variant.
echo "registers / spill bytes (float Plus; scan: inclusive kernel):"
for V in "${VARIANTS[@]}"; do
  read -r name bench flags <<< "$V"
  awk -v name="$name" -v bench="$bench" '
    /Compiling entry function/ {
      k = ""
      if (bench == "scan" && $0 ~ /scanKernelILb0EfNS_4PlusIf/) k = "scan"
      if (bench == "reduce" && $0 ~ /reduceTilesKernelIfNS_4PlusIf/) k = "tiles"
      if (bench == "reduce" && $0 ~ /reduceTreeKernelIfNS_4PlusIf/) k = "tree"
    }
    k != "" && /spill stores/ { match($0, /[0-9]+ bytes spill stores/);
      sp = substr($0, RSTART, RLENGTH - 19) }
    k != "" && /Used [0-9]+ registers/ { match($0, /Used [0-9]+/);
      out = out " " k " " substr($0, RSTART + 5, RLENGTH - 5) "r/" sp "sp"
      k = "" }
    END { printf "  %-15s%s\n", name, out }' "$OUT/$name.build.log"
done
exit $status
