#!/usr/bin/env bash
#===- bench/port_speed.sh - port mode vs clang -fsyntax-only --------------===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/port_speed.sh [COPIES] [RUNS]
#
# Builds a large CUDA TU from examples/cuda/ft_layernorm.cu: its kernels and
# device helpers copied into COPIES namespaces (default 39: 4,453 lines, 78
# kernels), then measures, interleaved, RUNS times (default 7), the CPU time
# (user + system) of:
#   clang++-19 -x cuda --cuda-host-only ... -include cuda_runtime.h
#              -fsyntax-only TU          (the anchor: the parse the tool does)
#   hpp-rewrite --port TU -o out.cpp
#   hpp-rewrite --port --pch-dir DIR TU -o out.cpp   (the declarations of the
#              CUDA headers precompiled, built by two runs before timing)
# and prints the medians and the ratios; the two outputs must be the same.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
copies=${1:-39}
runs=${2:-7}
tool=${HPP_REWRITE:-$root/build/tools/hpp-rewrite/hpp-rewrite}
decls=$root/cuda-decls
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$root/examples/cuda/ft_layernorm.cu" "$copies" > "$work/big.cu" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
main = next(i for i, l in enumerate(lines) if l.startswith("int main("))
first = max(i for i, l in enumerate(lines[:main]) if l.startswith("#include"))
print("\n".join(l for l in lines[:first + 1] if l.startswith("#include")))
body = "\n".join(lines[first + 1:main])
for i in range(int(sys.argv[2])):
    print("namespace n%d {\n%s\n}" % (i, body))
print("int main() { return 0; }")
PY

cpu() { # CPU seconds of the command
  /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -n 1 | awk '{print $1 + $2}'
}
"$tool" --port --pch-dir "$work/pch" "$work/big.cu" -o "$work/warm.cpp" -- 2>/dev/null
"$tool" --port --pch-dir "$work/pch" "$work/big.cu" -o "$work/warm.cpp" -- 2>/dev/null
: > "$work/times"
for _ in $(seq "$runs"); do
  a=$(cpu clang++-19 -x cuda --cuda-host-only -nocudainc -nocudalib \
        "--cuda-path=$decls" -isystem "$decls" -include cuda_runtime.h \
        -std=c++17 -fsyntax-only -Wno-unknown-cuda-version "$work/big.cu")
  b=$(cpu "$tool" --port "$work/big.cu" -o "$work/full.cpp" --)
  c=$(cpu "$tool" --port --pch-dir "$work/pch" "$work/big.cu" -o "$work/pch.cpp" --)
  echo "$a $b $c" >> "$work/times"
done
cmp -s "$work/full.cpp" "$work/pch.cpp" || { echo "outputs differ" >&2; exit 1; }
python3 - "$work/times" "$(wc -l < "$work/big.cu")" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
a, b, c = (statistics.median(col) for col in zip(*rows))
print("TU: %s lines; medians of %d runs, CPU seconds" % (sys.argv[2], len(rows)))
print("clang -fsyntax-only (anchor)  %.2f" % a)
print("hpp-rewrite --port            %.2f  (%.2fx)" % (b, b / a))
print("hpp-rewrite --port --pch-dir  %.2f  (%.2fx)" % (c, c / a))
PY
