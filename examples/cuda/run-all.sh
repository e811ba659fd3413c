#!/usr/bin/env bash
# examples/cuda/run-all.sh - build and run the CUDA port-mode corpus.
#
# Part of hpp-rewrite. Needs nvcc and an NVIDIA GPU (sm_90 by default).
#
# Usage: examples/cuda/run-all.sh OUTDIR [NAME...]
#
# Compiles every examples/cuda/*.cu (or only the NAMEs given) with
#   $NVCC -std=c++17 -arch=$ARCH -O2 -o OUTDIR/NAME NAME.cu
# runs each binary, saves its stdout to OUTDIR/NAME.out and its stderr to
# OUTDIR/NAME.err, and prints one line per program:
#   NAME: PASS
#   NAME: FAIL (compile | exit N | no PASS line | timeout)
# then "N passed, N failed". A program passes when it exits 0 and its last
# line of stdout is PASS. The exit status is 0 only if every program passed.
#
# Environment: NVCC (default /usr/local/cuda/bin/nvcc, else nvcc on PATH),
# ARCH (default sm_90), TIMEOUT (seconds per run, default 120).

set -u

if [ $# -lt 1 ]; then
  echo "usage: $0 OUTDIR [NAME...]" >&2
  exit 2
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
outdir="$1"
shift
mkdir -p "$outdir" || exit 2
outdir="$(cd "$outdir" && pwd)"

if [ -z "${NVCC:-}" ]; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    NVCC=/usr/local/cuda/bin/nvcc
  else
    NVCC=nvcc
  fi
fi
ARCH="${ARCH:-sm_90}"
TIMEOUT="${TIMEOUT:-120}"

if [ $# -gt 0 ]; then
  names=("$@")
else
  names=()
  for f in "$here"/*.cu; do
    names+=("$(basename "$f" .cu)")
  done
fi

run_with_timeout() {
  if command -v timeout >/dev/null 2>&1; then
    timeout "$TIMEOUT" "$@"
  else
    "$@"
  fi
}

passed=0
failed=0
for name in "${names[@]}"; do
  src="$here/$name.cu"
  bin="$outdir/$name"
  out="$outdir/$name.out"
  err="$outdir/$name.err"
  rm -f "$bin" "$out" "$err"
  if [ ! -f "$src" ]; then
    echo "$name: FAIL (no such program)"
    failed=$((failed + 1))
    continue
  fi
  if ! "$NVCC" -std=c++17 -arch="$ARCH" -O2 -o "$bin" "$src" \
      >"$outdir/$name.build.log" 2>&1; then
    echo "$name: FAIL (compile)"
    failed=$((failed + 1))
    continue
  fi
  (cd "$outdir" && run_with_timeout "$bin") >"$out" 2>"$err"
  rc=$?
  last="$(tail -n 1 "$out" 2>/dev/null)"
  if [ "$rc" -eq 0 ] && [ "$last" = "PASS" ]; then
    echo "$name: PASS"
    passed=$((passed + 1))
  elif [ "$rc" -eq 124 ]; then
    echo "$name: FAIL (timeout)"
    failed=$((failed + 1))
  elif [ "$rc" -ne 0 ]; then
    echo "$name: FAIL (exit $rc)"
    failed=$((failed + 1))
  else
    echo "$name: FAIL (no PASS line)"
    failed=$((failed + 1))
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
