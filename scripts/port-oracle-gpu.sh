#!/usr/bin/env bash
# The port-mode oracle on an NVIDIA GPU (docs/port.md, "The corpus"): builds
# every original of examples/cuda and every port in PORTS (NAME.cpp, made
# here by scripts/port-corpus.py --out PORTS) with nvcc for sm_90, runs each,
# and compares: the original must print its recorded output
# (examples/cuda/expected/NAME.out, which --record rewrites from this GPU)
# and the port must print the original's output, byte for byte.
#
# Usage (in the repository root, on the GPU machine):
#   scripts/port-oracle-gpu.sh [--record] PORTS OUT
# OUT gets each program's stdout and stderr, device.txt and summary.txt.
set -u
record=0
[ "${1:-}" = --record ] && { record=1; shift; }
ports=${1:?usage: port-oracle-gpu.sh [--record] PORTS OUT}
out=${2:?usage: port-oracle-gpu.sh [--record] PORTS OUT}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
bin=$(mktemp -d)
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
"$nvcc" --version | tail -n 2 >> "$out/device.txt"
build() { # NAME SOURCE KIND
  local flags=()
  [ "$3" = port ] && flags=(-x cu -I runtime -I include)
  "$nvcc" -std=c++17 -arch=sm_90 -O2 "${flags[@]}" -o "$bin/$1.$3" "$2" \
    2> "$out/$1.$3.build" || echo "$1 $3: does not build" >> "$bin/fails"
}
export -f build; export nvcc bin out
{ for f in examples/cuda/*.cu; do echo "$(basename "$f" .cu) $f orig"; done
  for f in "$ports"/*.cpp; do [ -e "$f" ] && echo "$(basename "$f" .cpp) $f port"; done
} | xargs -P "$(nproc)" -L 1 bash -c 'build "$0" "$1" "$2"'
: > "$out/summary.txt"
[ -e "$bin/fails" ] && cat "$bin/fails" >> "$out/summary.txt"
for f in examples/cuda/*.cu; do
  n=$(basename "$f" .cu)
  for k in orig port; do
    [ -x "$bin/$n.$k" ] || continue
    timeout 120 "$bin/$n.$k" > "$out/$n.$k.out" 2> "$out/$n.$k.err"
    echo "$n $k: exit $?" >> "$out/summary.txt"
  done
  [ "$record" = 1 ] && [ -e "$out/$n.orig.out" ] && cp "$out/$n.orig.out" "examples/cuda/expected/$n.out"
  if [ -e "$out/$n.orig.out" ]; then
    cmp -s "$out/$n.orig.out" "examples/cuda/expected/$n.out" ||
      echo "$n: the original differs from its recorded output" >> "$out/summary.txt"
    if [ -e "$out/$n.port.out" ]; then
      cmp -s "$out/$n.orig.out" "$out/$n.port.out" &&
        echo "$n: port = original" >> "$out/summary.txt" ||
        echo "$n: PORT DIFFERS from the original" >> "$out/summary.txt"
    fi
  fi
done
rm -rf "$bin"
cat "$out/summary.txt"
! grep -q "DIFFERS\|differs\|does not build" "$out/summary.txt"
