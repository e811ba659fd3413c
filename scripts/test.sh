#!/usr/bin/env bash
# Builds hpp-rewrite and runs the whole lit suite (rewrite, diagnostics,
# compile tests for sm_90/gfx90a/gfx1030, CPU runs of every example, a
# short fixed run of the fuzzer).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Each step's time goes to the end of the log (docs/benchmarks.md, "The
# test suite's time", has the budget: 15 minutes on 2 cores in all).
# glibc's malloc with transparent huge pages, for the builds and the GPU
# compiles too (test/lit.cfg.py sets it for lit's tests, and says why);
# a GLIBC_TUNABLES that sets glibc.malloc.hugetlb itself is kept.
case ":${GLIBC_TUNABLES:-}" in
  *:glibc.malloc.hugetlb=*) ;;
  *) export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1" ;;
esac
start=$SECONDS
times=()
step() { times+=("$1 $((SECONDS - start)) s"); start=$SECONDS; }
# What the tests run: the tool and the unit tests (the examples' CMake
# targets are compiled by the tests themselves; test/examples/gxx.test
# compiles them with g++ as well).
"$root/scripts/build.sh" hpp-rewrite hpp-rewrite-unittests
step build
# The fuzzer, for the smoke run of test/fuzz (skipped, with that test, when
# HPP_NO_FUZZER=1), at -O0 and without line tables: it compiles in about
# three fifths of the time of -O1 with them, and the smoke run is short.
[ "${HPP_NO_FUZZER:-0}" = 1 ] ||
  HPP_FUZZER_OPT="${HPP_FUZZER_OPT:--O0}" \
  HPP_FUZZER_LINE_TABLES="${HPP_FUZZER_LINE_TABLES:-OFF}" "$root/scripts/build-fuzzer.sh"
step fuzzer-build
log=$(mktemp)
status=0
# The tests queue their GPU compile checks (%gpu_check) here; they are
# compiled after lit, several files per compiler call (scripts/gpu-check.py).
queue="$root/build/test/gpu-check-queue"
rm -rf "$queue"
HPP_GPU_CHECK_QUEUE="$queue" \
  python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv --time-tests "$root/build/test" 2>&1 \
  | tee "$log" || status=$?
step lit
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
unsupported=$(sed -n 's/^ *Unsupported *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
rm -f "$log"
echo "lit: ${passed:-0} passed, ${failed:-0} failed, ${unsupported:-0} skipped"
[ "${passed:-0}" -gt 0 ] || status=1
if [ -d "$queue" ]; then
  python3 "$root/scripts/gpu-check.py" --drain "$queue" --progress || status=1
fi
step gpu-check
echo "times: ${times[*]}"
exit "$status"
