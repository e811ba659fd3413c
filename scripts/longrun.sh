#!/usr/bin/env bash
# Long differential run of hpp-rewrite over generated programs: many seeds
# of a generator (scripts/warpgen.py, scripts/scope_corpus.py with -g
# scope, warpgen.py's multi-file programs with -g multifile, or its CUDA
# translation units with -g cuda, ported with --port) through
# scripts/difftest.py. Under OUT, each seed keeps its
# programs, the runner's report (report.txt, results.json) and, when it
# failed, the runner's work directory without the binaries (rewritten
# sources, the tool's diagnostics); OUT/summary.txt has one line per seed
# and the totals. With -G, the runner also compiles every rewritten program
# with nvcc (sm_90) and hipcc (gfx90a, gfx1030) where they are installed
# (difftest.py --gpu). Meant to be left running: about 0.26 s of CPU
# per warpgen kernel at -O0, so 20,000 kernels take about 1.5 hours of CPU
# (45 minutes on two cores). With -g multifile, -k and -n count programs
# (default 5000 in all, 50 per seed; about 6 CPU seconds a program) and
# each seed's line and the totals count the programs: accepted and right,
# accepted with a warning, refused by a header conflict, other refusals,
# failed, silent mismatches (and those of the known class the runner
# names). With -g cuda (-t 40 by default; -y picks warpgen's --styles), each
# seed's line and the totals count the kernels: right, warned, refused,
# failed, silent mismatches (about 0.12 CPU seconds a kernel: 2,000 in two
# minutes on two cores).
#
# Usage: scripts/longrun.sh [-g warpgen|scope|multifile|cuda] [-f FAMILIES] [-y STYLES]
#                           [-k KERNELS] [-s FIRST_SEED] [-n PER_SEED] [-t PER_TU]
#                           [-j JOBS] [-o OUT] [-G] [-- difftest options]
#   -g  generator (default warpgen)           -f  warpgen --families / scope_corpus --kinds
#   -y  with -g cuda: warpgen --styles (cuda32,generic,mixed)
#   -k  kernels in all (default 20000)        -s  first seed (default 1000)
#   -n  kernels per seed (default 500)        -t  kernels per translation unit (default 32;
#                                                 40 with -g cuda)
#   -j  parallel jobs (default: the cores)    -o  output directory (default longrun-<date>)
#   -G  also compile the rewritten programs with nvcc and hipcc
# $PYTHON runs the scripts (default python3).
set -u
py=${PYTHON:-python3}
here="$(cd "$(dirname "$0")" && pwd)"
kernels="" seed=1000 per_seed="" per_tu="" jobs="$(nproc)" gen=warpgen families="" gpu=0
styles=""
out="longrun-$(date +%Y%m%d-%H%M%S)"
while getopts "g:f:y:k:s:n:t:j:o:Gh" opt; do
  case "$opt" in
    g) gen=$OPTARG ;; f) families=$OPTARG ;; y) styles=$OPTARG ;;
    k) kernels=$OPTARG ;; s) seed=$OPTARG ;; n) per_seed=$OPTARG ;;
    t) per_tu=$OPTARG ;; j) jobs=$OPTARG ;; o) out=$OPTARG ;; G) gpu=1 ;;
    *) sed -n '2,34p' "$0"; exit 2 ;;
  esac
done
if [ "$gen" = multifile ]; then
  kernels=${kernels:-5000} per_seed=${per_seed:-50}  # programs
else
  kernels=${kernels:-20000} per_seed=${per_seed:-500}
fi
if [ "$gen" = cuda ]; then per_tu=${per_tu:-40}; else per_tu=${per_tu:-32}; fi
case "$gen" in
  warpgen) generate() { "$py" "$here/warpgen.py" --seed "$1" --kernels "$2" --per-tu "$per_tu" \
             ${families:+--families "$families"} --out "$3"; } ;;
  scope) generate() { "$py" "$here/scope_corpus.py" --seed "$1" --count "$2" --per-tu "$per_tu" \
           ${families:+--kinds "$families"} --out "$3"; } ;;
  multifile) generate() { "$py" "$here/warpgen.py" --multi-file --seed "$1" --programs "$2" \
               ${families:+--families "$families"} --out "$3"; } ;;
  cuda) generate() { "$py" "$here/warpgen.py" --cuda --seed "$1" --kernels "$2" --per-tu "$per_tu" \
          ${families:+--families "$families"} ${styles:+--styles "$styles"} --out "$3"; } ;;
  *) echo "longrun: unknown generator $gen" >&2; exit 2 ;;
esac
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
mkdir -p "$out"
summary="$out/summary.txt"
what=kernels
[ "$gen" = multifile ] && what=programs
echo "longrun: $gen${families:+ ($families)}${styles:+ (styles $styles)}, $kernels $what, seeds from $seed, $per_seed per seed$([ "$gen" = multifile ] || echo ", $per_tu per TU"), -j$jobs$([ "$gpu" -eq 1 ] && echo ", nvcc and hipcc")" | tee "$summary"
done_kernels=0 failed_seeds=0 total_failed=0
# Multi-file programs: right, warned, conflict, refused, failed, silent, known.
mf_totals="0 0 0 0 0 0 0"
# CUDA kernels: right, warned, refused, failed, silent.
cuda_totals="0 0 0 0 0"
start=$(date +%s)
while [ "$done_kernels" -lt "$kernels" ]; do
  n=$per_seed
  [ $((kernels - done_kernels)) -lt "$n" ] && n=$((kernels - done_kernels))
  dir="$out/seed-$seed"
  generate "$seed" "$n" "$dir/programs" || exit 2
  "$py" "$here/difftest.py" -j "$jobs" --opt O0 --progress=off --work-dir "$dir/work" \
    --json "$dir/results.json" $([ "$gpu" -eq 1 ] && echo --gpu=auto) "$@" "$dir/programs" \
    > "$dir/report.txt" 2>&1
  status=$?
  last=$(tail -n 1 "$dir/report.txt")
  if [ "$status" -eq 0 ]; then
    rm -rf "$dir/work"
  else
    # Keep the rewritten sources and the tool's diagnostics, not the binaries.
    find "$dir/work" -type f \( -name ref -o -name ref32 -o -name ref64 -o -name gen \) -delete
    failed_seeds=$((failed_seeds + 1))
    # A run that stopped before its summary (a usage error) counts one.
    n_failed=$(echo "$last" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
    total_failed=$((total_failed + ${n_failed:-1}))
  fi
  classes=$(grep -o 'failed \[[a-z0-9-]*\][^:]*: [0-9]*' "$dir/report.txt" | tr '\n' ';')
  programs=""
  if [ "$gen" = multifile ]; then
    # "multi-file programs: N: accepted and right A, accepted with a warning
    # W, refused by a header conflict C (U units), other refusals R, failed F"
    counts=$(sed -n 's/.*multi-file programs: [0-9]*: accepted and right \([0-9]*\), accepted with a warning \([0-9]*\), refused by a header conflict \([0-9]*\) ([0-9]* units), other refusals \([0-9]*\), failed \([0-9]*\).*/\1 \2 \3 \4 \5/p' "$dir/report.txt")
    silent=$(sed -n 's/.*silent mismatches: \([0-9]*\).*/\1/p' "$dir/report.txt")
    known=$(sed -n 's/.*failed units of a known class.*: \([0-9]*\)$/\1/p' "$dir/report.txt")
    [ -n "$counts" ] || counts="0 0 0 0 $n"
    mf_totals=$(echo "$mf_totals $counts ${silent:-0} ${known:-0}" |
                awk '{for (i = 1; i <= 7; i++) printf "%d ", $i + $(i + 7)}')
    programs=" [programs: right, warned, conflict, refused, failed: $counts; silent ${silent:-0}, known ${known:-0}]"
  fi
  if [ "$gen" = cuda ]; then
    # "CUDA kernels: N: right R, warned W, refused F, failed X, silent S"
    counts=$(sed -n 's/.*CUDA kernels: [0-9]*: right \([0-9]*\), warned \([0-9]*\), refused \([0-9]*\), failed \([0-9]*\), silent \([0-9]*\).*/\1 \2 \3 \4 \5/p' "$dir/report.txt")
    [ -n "$counts" ] || counts="0 0 0 $n 0"
    cuda_totals=$(echo "$cuda_totals $counts" |
                  awk '{for (i = 1; i <= 5; i++) printf "%d ", $i + $(i + 5)}')
    programs=" [kernels: right, warned, refused, failed, silent: $counts]"
  fi
  echo "seed $seed: $last${programs} ${classes:+($classes)}" | tee -a "$summary"
  done_kernels=$((done_kernels + n))
  seed=$((seed + 1))
done
echo "total: $done_kernels $what, $total_failed failed units, $failed_seeds seeds with failures, $(( $(date +%s) - start ))s" | tee -a "$summary"
if [ "$gen" = multifile ]; then
  set -- $mf_totals
  echo "programs: accepted and right $1, accepted with a warning $2, refused by a header conflict $3, other refusals $4, failed $5; silent mismatches (units) $6, of the known class $7" | tee -a "$summary"
fi
if [ "$gen" = cuda ]; then
  set -- $cuda_totals
  echo "CUDA kernels: right $1, warned $2, refused $3, failed $4 (silent mismatches $5)" | tee -a "$summary"
fi
[ "$total_failed" -eq 0 ]
