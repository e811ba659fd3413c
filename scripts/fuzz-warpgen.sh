#!/usr/bin/env bash
# The grammar-aware fuzzer: scripts/warpgen.py writes warp-level dialect
# programs for seeds <first>..<last>, and each is rewritten by a sanitized
# build (HPP_BUILD_FUZZER): hpp-rewrite-fuzzer (the default; all the
# programs in one process, then, if that finds anything, each on its own),
# or with --tool, that build's hpp-rewrite (-o /dev/null). A
# crash, a sanitizer report or a failed assert is a finding: the program is
# kept under <findings> with the log, and the exit status is 1. A program
# the tool rejects with diagnostics is reported too (warpgen only writes
# valid programs), but is not a finding.
#
# Usage: fuzz-warpgen.sh [--seeds FIRST..LAST] [--kernels N] [--per-tu N]
#                        [--fuzzer PATH | --tool PATH] [--findings DIR]
#                        [--keep DIR]
#   --keep DIR  also copy every program into DIR (to seed the libFuzzer
#               corpus with them)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seeds=1..20
kernels=8
per_tu=4
fuzzer=$root/build/fuzz/tools/hpp-rewrite-fuzzer/hpp-rewrite-fuzzer
tool=""
findings=$root/build/fuzz/warpgen-findings
keep=""
while (($#)); do
  case $1 in
    --seeds) seeds=$2; shift 2 ;;
    --kernels) kernels=$2; shift 2 ;;
    --per-tu) per_tu=$2; shift 2 ;;
    --fuzzer) fuzzer=$2; shift 2 ;;
    --tool) tool=$2; shift 2 ;;
    --findings) findings=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
  esac
done
first=${seeds%..*}
last=${seeds#*..}
runner=${tool:-$fuzzer}
[ -x "$runner" ] || { echo "fuzz-warpgen: no $runner (build with HPP_BUILD_FUZZER=ON)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -z "$keep" ] || mkdir -p "$keep"
programs=0 crashes=0 rejected=0
finding_re='ERROR: (Address|Undefined|Leak)Sanitizer|runtime error:|Assertion .* failed|PLEASE submit a bug report|deadly signal'
for ((seed = first; seed <= last; seed++)); do
  python3 "$root/scripts/warpgen.py" --seed "$seed" --kernels "$kernels" \
    --per-tu "$per_tu" --out "$work/s$seed" >/dev/null
done
all=("$work"/s*/*.cpp)
# The fuzzer runs every program in one process first (it builds its
# precompiled dialect header once, a few seconds, instead of once per
# program); only when that run finds something is each program run on its
# own, to say which.
if [ -z "$tool" ] && [ -e "${all[0]}" ] &&
   "$fuzzer" "${all[@]}" >"$work/log" 2>&1 && ! grep -qE "$finding_re" "$work/log"; then
  programs=${#all[@]}
  [ -z "$keep" ] || cp "${all[@]}" "$keep/"
  echo "fuzz-warpgen: seeds $first..$last, $programs programs, 0 findings, 0 rejected"
  exit 0
fi
for ((seed = first; seed <= last; seed++)); do
  dir=$work/s$seed
  for prog in "$dir"/*.cpp; do
    programs=$((programs + 1))
    [ -z "$keep" ] || cp "$prog" "$keep/"
    status=0
    if [ -n "$tool" ]; then
      "$tool" "$prog" -o /dev/null >"$work/log" 2>&1 || status=$?
    else
      "$fuzzer" "$prog" >"$work/log" 2>&1 || status=$?
    fi
    if grep -qE "$finding_re" "$work/log" ||
       { [ -n "$tool" ] && ((status > 1)); } || { [ -z "$tool" ] && ((status != 0)); }; then
      crashes=$((crashes + 1))
      mkdir -p "$findings"
      cp "$prog" "$findings/"
      cp "$work/log" "$findings/$(basename "$prog" .cpp).log"
      echo "fuzz-warpgen: FINDING $(basename "$prog") (seed $seed, status $status): $findings"
    elif [ -n "$tool" ] && ((status == 1)); then
      rejected=$((rejected + 1))
      echo "fuzz-warpgen: rejected $(basename "$prog") (seed $seed): $(grep -m1 'error:' "$work/log" || true)"
    fi
  done
done
echo "fuzz-warpgen: seeds $first..$last, $programs programs, $crashes findings, $rejected rejected"
((crashes == 0))
