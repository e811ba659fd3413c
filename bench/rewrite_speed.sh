#!/usr/bin/env bash
#===- bench/rewrite_speed.sh - hpp-rewrite vs clang -fsyntax-only ---------===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/rewrite_speed.sh [FUNCTIONS] [RUNS]
#
# Generates a dialect TU with FUNCTIONS (default 400) functions, each with a
# __device(hpp) helper and two parallelFor calls (14 lines each: 5,603 lines
# for 400), then times, interleaved, RUNS times (default 7):
#   clang++-19 -std=c++17 -fsyntax-only -I include TU    (the anchor)
#   clang++-19 ... -D__HPP_REWRITE__ (the parse the tool itself does)
#   hpp-rewrite TU -o out.cpp
# and prints the medians and the ratios.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-400}
runs=${2:-7}
tool=${HPP_REWRITE:-$root/build/tools/hpp-rewrite/hpp-rewrite}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$root/bench/gen_tu.py" "$n" > "$work/big.cpp"

seconds() {
  local s e
  s=$(date +%s.%N)
  "$@" >/dev/null
  e=$(date +%s.%N)
  python3 -c "print($e - $s)"
}
for _ in $(seq "$runs"); do
  a=$(seconds clang++-19 -std=c++17 -fsyntax-only -I "$root/include" "$work/big.cpp")
  b=$(seconds clang++-19 -std=c++17 -fsyntax-only -D__HPP_REWRITE__=1 \
      -isystem "$root/include" -isystem "$root/runtime" "$work/big.cpp")
  c=$(seconds "$tool" "$work/big.cpp" -o "$work/out.cpp")
  echo "$a $b $c"
done > "$work/times"
python3 - "$work/times" "$(wc -l < "$work/big.cpp")" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
a, b, c = (statistics.median(x) for x in zip(*rows))
print(f"TU: {sys.argv[2]} lines, {len(rows)} runs (medians)")
print(f"clang++-19 -fsyntax-only          {a:.3f} s")
print(f"  same, rewrite-mode parse        {b:.3f} s")
print(f"hpp-rewrite                       {c:.3f} s")
print(f"hpp-rewrite / clang -fsyntax-only = {c / a:.3f} (target <= 1.15)")
print(f"hpp-rewrite / rewrite-mode parse  = {c / b:.3f} (the tool's own passes)")
PY
