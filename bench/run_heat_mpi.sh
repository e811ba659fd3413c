#!/usr/bin/env bash
#===- bench/run_heat_mpi.sh - Strong and weak scaling of heat_mpi on GPUs -===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/run_heat_mpi.sh [REWRITTEN_SOURCE]
#
# examples/heat_mpi.cpp (the 2-D heat equation over MPI ranks, halo
# exchange through host-staged managed memory) on 1, 2, 4, ... GPUs of one
# machine, one rank per GPU (HPP_DEVICE=local-rank):
#
# 1. rewrites the example with build/tools/hpp-rewrite (mpi.h's
#    directories after `--`), or takes REWRITTEN_SOURCE, rewritten
#    elsewhere (a GPU machine without the tool);
# 2. builds it with nvcc and mpicxx's include and link flags
#    (`mpicxx --showme:incdirs`, `--showme:link`), or with hipcc when
#    HPP_HEAT_COMPILER=hipcc (HPP_HEAT_COMPILER=cpu: with mpicxx on the
#    runtime's CPU backend, to try the script without a GPU);
# 3. for each rank count: one checked run on a small grid (the program
#    compares with its serial run: "verified"), then the timed runs with
#    --no-verify: strong scaling (an N x N grid whatever the ranks) and
#    weak scaling (--weak: N rows per rank), each repeated and reported as
#    the median and the minimum of the program's `time_s` (the time steps,
#    from a barrier to a barrier), with the speed-up (strong) or the
#    efficiency (weak) against one rank.
#
# Environment: HPP_HEAT_RANKS (default "1 2 4", capped at the GPUs that
# nvidia-smi or rocm-smi counts), HPP_HEAT_N (default 8192),
# HPP_HEAT_STEPS (default 200), HPP_HEAT_REPEATS (default 5),
# HPP_CUDA_ARCH (default sm_90), HPP_HIP_ARCH (default gfx90a), NVCC,
# HIPCC, MPIRUN_FLAGS (added to mpirun's; default: as root, more ranks
# than slots allowed), HPP_RUN_TIMEOUT (seconds per run, default 600).
# Exit status: 0 when everything built, every checked run said "verified"
# and every timed run exited 0.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${HPP_HEAT_WORK:-$ROOT/build/heat_mpi}
mkdir -p "$WORK"
COMPILER=${HPP_HEAT_COMPILER:-nvcc}
N=${HPP_HEAT_N:-8192}
STEPS=${HPP_HEAT_STEPS:-200}
REPEATS=${HPP_HEAT_REPEATS:-5}
TIMEOUT=${HPP_RUN_TIMEOUT:-600}
MPIRUN_FLAGS=${MPIRUN_FLAGS:---allow-run-as-root --oversubscribe}

for tool in mpicxx mpirun; do
  if ! command -v "$tool" >/dev/null; then
    echo "$0: $tool not found (Open MPI: apt-get install libopenmpi-dev" \
         "openmpi-bin, or scripts/install-deps.sh)" >&2
    exit 2
  fi
done
read -r -a MPI_INCDIRS <<< "$(mpicxx --showme:incdirs)"
MPI_INCLUDE=("${MPI_INCDIRS[@]/#/-I}")
read -r -a MPI_LINK <<< "$(mpicxx --showme:link)"
# nvcc takes -L and -l itself, anything else of the link (-pthread, -Wl,...)
# through -Xcompiler.
NVCC_LINK=()
for f in "${MPI_LINK[@]}"; do
  case $f in
    -L* | -l*) NVCC_LINK+=("$f") ;;
    *) NVCC_LINK+=(-Xcompiler "$f") ;;
  esac
done

# 1. The rewritten source.
SRC=$WORK/heat_mpi.cu
if [ $# -ge 1 ]; then
  [ "$1" -ef "$SRC" ] || cp "$1" "$SRC"
else
  "$ROOT/build/tools/hpp-rewrite/hpp-rewrite" "$ROOT/examples/heat_mpi.cpp" \
    -o "$SRC" -- "${MPI_INCLUDE[@]}"
fi

# 2. The program, and how many GPUs there are.
BIN=$WORK/heat_mpi
GPUS=0
if [ "$COMPILER" = cpu ]; then
  # The runtime's CPU backend: a check of this script without a GPU.
  mpicxx -std=c++17 -O2 -pthread -x c++ -I "$ROOT/runtime" -I "$ROOT/include" \
    "$SRC" -x none -o "$BIN"
  GPUS=$(nproc)
elif [ "$COMPILER" = hipcc ]; then
  HIPCC=${HIPCC:-$(command -v hipcc || echo /opt/rocm/bin/hipcc)}
  "$HIPCC" -std=c++17 -O3 -x hip --offload-arch="${HPP_HIP_ARCH:-gfx90a}" \
    -I "$ROOT/runtime" -I "$ROOT/include" "${MPI_INCLUDE[@]}" "$SRC" \
    "${MPI_LINK[@]}" -o "$BIN"
  GPUS=$(rocm-smi --showid 2>/dev/null | grep -c '^GPU\[' || true)
else
  NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  "$NVCC" -std=c++17 -O3 -arch="${HPP_CUDA_ARCH:-sm_90}" -x cu \
    -I "$ROOT/runtime" -I "$ROOT/include" "${MPI_INCLUDE[@]}" "$SRC" \
    "${NVCC_LINK[@]}" -o "$BIN"
  GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
[ "$GPUS" -ge 1 ] || GPUS=1
RANKS=()
for r in ${HPP_HEAT_RANKS-1 2 4}; do
  [ "$r" -le "$GPUS" ] && RANKS+=("$r")
done
echo "heat_mpi: $COMPILER build, $GPUS device(s), ranks ${RANKS[*]}," \
     "N=$N steps=$STEPS, $REPEATS repeats"

# run R ARGS...: the program under mpirun with R ranks, one GPU each.
run() {
  local r=$1
  shift
  # shellcheck disable=SC2086
  timeout "$TIMEOUT" mpirun $MPIRUN_FLAGS -np "$r" -x HPP_DEVICE=local-rank \
    "$BIN" "$@"
}

# median_min R ARGS...: REPEATS timed runs; prints "median min" seconds.
median_min() {
  local times=() i t
  for ((i = 0; i < REPEATS; ++i)); do
    t=$(run "$@" --time --no-verify | sed -n 's/^heat_mpi time_s=//p') ||
      return 1
    [ -n "$t" ] || return 1
    times+=("$t")
  done
  printf '%s\n' "${times[@]}" | sort -g |
    awk '{ t[NR] = $1 }
         END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
               printf "%.6f %.6f\n", m, t[1] }'
}

status=0
# 3a. Checked runs: the ranks' devices, and the serial comparison.
for r in "${RANKS[@]}"; do
  out=$(run "$r" 512 50) || status=1
  while IFS= read -r line; do echo "  check: $line"; done <<< "$out"
  grep -q ' verified$' <<< "$out" || status=1
done

# 3b. Timed runs.
printf '%-6s %5s %12s %10s %10s %8s\n' mode ranks grid median_s min_s vs_1
for mode in strong weak; do
  base=""
  for r in "${RANKS[@]}"; do
    if [ "$mode" = strong ]; then
      args=("$N" "$STEPS")
      grid="${N}x$N"
    else
      args=("$N" "$STEPS" --weak)
      grid="$((N * r))x$N"
    fi
    if ! read -r med min < <(median_min "$r" "${args[@]}") ||
      [ -z "$med" ]; then
      printf '%-6s %5s %12s %10s\n' "$mode" "$r" "$grid" failed
      status=1
      continue
    fi
    base=${base:-$med}
    # Strong: speed-up t1 / tR; weak: efficiency t1 / tR (1 is perfect).
    vs=$(awk -v a="$base" -v b="$med" 'BEGIN { printf "%.2f", a / b }')
    printf '%-6s %5s %12s %10s %10s %8s\n' "$mode" "$r" "$grid" "$med" "$min" \
      "$vs"
  done
done
exit "$status"
