#!/usr/bin/env bash
# Collects the seed corpus of hpp-rewrite-fuzzer into <dir> (created):
# examples/*.cpp and the dialect sources of test/ (their lit RUN/CHECK
# lines dropped: comments the fuzzer need not mutate; not test/tool/Inputs/
# crash/, inputs on which clang 19 itself crashes), plus the programs
# that scripts/warpgen.py writes for seed "fuzz" (<kernels> kernels, two a
# translation unit; default 6). Usage: fuzz-corpus.sh <dir> [<kernels>]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: fuzz-corpus.sh <dir> [<warpgen kernels>]}
kernels=${2:-6}
mkdir -p "$out"
strip='/^[[:space:]]*\/\/ *(RUN|REQUIRES|UNSUPPORTED|XFAIL|[A-Z0-9-]*CHECK[-A-Z]*):/d'
count=0
while IFS= read -r src; do
  rel=${src#"$root"/}
  sed -E "$strip" "$src" >"$out/${rel//\//_}"
  count=$((count + 1))
done < <(find "$root/examples" -maxdepth 1 -name '*.cpp' | sort
         find "$root/test/rewrite" "$root/test/diagnostics" "$root/test/tool" \
           -name '*.cpp' -not -path '*/Inputs/crash/*' | sort)
if ((kernels > 0)); then
  gen=$(mktemp -d)
  trap 'rm -rf "$gen"' EXIT
  python3 "$root/scripts/warpgen.py" --seed fuzz --kernels "$kernels" \
    --per-tu 2 --out "$gen" >/dev/null
  for f in "$gen"/*.cpp; do
    cp "$f" "$out/"
    count=$((count + 1))
  done
fi
echo "fuzz-corpus: $count seeds in $out"
