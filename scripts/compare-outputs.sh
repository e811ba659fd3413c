#!/usr/bin/env bash
# compare-outputs.sh: the evidence that a refactoring changed no behaviour.
#
# Rewrites a fixed set of inputs with one hpp-rewrite binary and stores, per
# input, the output (.out), the diagnostics (.err) and the exit status (.rc)
# under OUT-DIR. Run it with the tool built before a change and with the
# tool built after it, then compare the two directories:
#
#   scripts/compare-outputs.sh --tool old/hpp-rewrite /tmp/before
#   scripts/compare-outputs.sh --tool build/tools/hpp-rewrite/hpp-rewrite /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
#
# The inputs: every program in examples/, every test/rewrite and
# test/diagnostics input, and the generators' CI batches (the programs of
# test/differential/generated.test, test/rewrite/scope-corpus.test and
# test/rewrite/placement-corpus.test, from the same seeds; the multi-file
# programs of test/differential/generated-multifile.test, each rewritten in
# one run into a directory, headers and all). Paths inside the outputs are
# the inputs' paths, so both runs must use the same checkout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool="$root/build/tools/hpp-rewrite/hpp-rewrite"
jobs=$(nproc)
usage() {
  echo "usage: compare-outputs.sh [--tool PATH] [-j N] OUT-DIR" >&2
  exit 2
}
while (($#)); do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) usage ;;
    *) out=$1; shift ;;
  esac
done
[ -n "${out:-}" ] || usage
[ -x "$tool" ] || { echo "compare-outputs.sh: no tool at $tool" >&2; exit 2; }
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The generators' batches go to a fixed directory of the checkout's build
# tree, so that both runs rewrite them at the same paths.
gen="$root/build/compare-outputs-inputs"
rm -rf "$gen"
mkdir -p "$gen"
python3 "$root/scripts/warpgen.py" --seed 1 --kernels 384 --per-tu 32 \
  --out "$gen/warpgen" >/dev/null
python3 "$root/scripts/scope_corpus.py" --seed 1 --count 14 --per-tu 14 \
  --accepted-only --out "$gen/scope" >/dev/null
python3 "$root/scripts/placement_corpus.py" "$gen/placement.cpp" >/dev/null
multi="$root/build/compare-outputs-multifile"
rm -rf "$multi"
python3 "$root/scripts/warpgen.py" --multi-file --seed 15 --first-program 1 --programs 3 \
  --out "$multi" >/dev/null

list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
  ls "$root"/examples/*.cpp "$root"/test/rewrite/*.cpp \
     "$root"/test/diagnostics/*.cpp
  find "$gen" -name '*.cpp' | sort
} > "$list"

# One input: its output, diagnostics and exit status, named after its path
# relative to the checkout.
rewrite_one() {
  local in=$1 rel
  rel=${in#"$ROOT"/}
  mkdir -p "$OUT/$(dirname "$rel")"
  local rc=0
  "$TOOL" "$in" -o "$OUT/$rel.out" -- -Wno-invalid-source-encoding \
    > "$OUT/$rel.stdout" 2> "$OUT/$rel.err" || rc=$?
  echo "$rc" > "$OUT/$rel.rc"
}
export -f rewrite_one
export ROOT="$root" OUT="$out" TOOL="$tool"
xargs -P "$jobs" -n 1 bash -c 'rewrite_one "$0"' < "$list"
# A multi-file program: its sources in one run, the outputs (sources and
# project headers) under <program>.out/.
programs=0
for dir in "$multi"/*/; do
  dir=${dir%/}
  rel=${dir#"$root"/}
  mkdir -p "$out/$rel.out"
  rc=0
  sources=$(python3 -c 'import json, sys; print(" ".join(sys.argv[1] + "/" + s for s in json.load(open(sys.argv[1] + "/program.json"))["sources"]))' "$dir")
  incs=$(python3 -c 'import json, sys; print(" ".join("-I" + sys.argv[1] + "/" + d for d in json.load(open(sys.argv[1] + "/program.json"))["include_dirs"]))' "$dir")
  # shellcheck disable=SC2086
  "$tool" $sources --output-dir "$out/$rel.out" --root "$dir" --quiet -- $incs \
    > "$out/$rel.stdout" 2> "$out/$rel.err" || rc=$?
  echo "$rc" > "$out/$rel.rc"
  programs=$((programs + 1))
done
echo "compare-outputs: $(wc -l < "$list") inputs and $programs multi-file programs rewritten by $tool into $out"
