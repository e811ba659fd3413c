#!/usr/bin/env bash
#===- bench/rewrite_project.sh - a whole project: -j1, -j2, memory --------===#
#
# Part of hpp-rewrite. Benchmark.
#
#===----------------------------------------------------------------------===#
#
# usage: bench/rewrite_project.sh [FILES] [FUNCTIONS] [RUNS]
#
# Generates a project of FILES (default 120) dialect sources of FUNCTIONS
# (default 12) functions each (bench/gen_tu.py, as bench/rewrite_speed.sh)
# and its compile_commands.json, then times, interleaved, RUNS times
# (default 3):
#   clang++-19 -fsyntax-only over every file, one at a time and two at a
#     time (xargs -P2)                                      (the anchors)
#   hpp-rewrite --all -p BUILD -j1 --output-dir OUT
#   hpp-rewrite --all -p BUILD -j2 --output-dir OUT
# and prints the medians (wall time, and the largest resident set of one
# process) and the ratios. Needs an otherwise idle machine: -j2 against -j1
# measures the second core.
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-120}
functions=${2:-12}
runs=${3:-3}
tool=${HPP_REWRITE:-$root/build/tools/hpp-rewrite/hpp-rewrite}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/build"

for f in $(seq 0 $((files - 1))); do
  python3 "$root/bench/gen_tu.py" "$functions" "${f}_" > "$work/src/unit$f.cpp"
done
python3 - "$work" "$root/include" <<'PY'
import glob, json, os, sys
work, include = sys.argv[1], sys.argv[2]
commands = [{"directory": os.path.join(work, "build"), "file": path,
             "arguments": ["clang++-19", "-std=c++17", "-I", include, "-c", path]}
            for path in sorted(glob.glob(os.path.join(work, "src", "*.cpp")))]
json.dump(commands, open(os.path.join(work, "build", "compile_commands.json"), "w"), indent=1)
PY

python3 - "$work" "$runs" "$tool" "$root/include" <<'PY'
import glob, os, resource, statistics, subprocess, sys, time
work, runs, tool, include = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sources = sorted(glob.glob(os.path.join(work, "src", "*.cpp")))
lines = sum(open(s).read().count("\n") for s in sources)

def run(cmd, **kw):
    """Wall seconds and the largest resident set (MiB) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(before, after) / 1024

syntax = ["clang++-19", "-std=c++17", "-fsyntax-only", "-I", include]
cases = {
    "clang++-19 -fsyntax-only, one at a time": lambda: run(
        ["xargs", "-P1", "-n1"] + syntax, input="\n".join(sources).encode()),
    "clang++-19 -fsyntax-only, two at a time": lambda: run(
        ["xargs", "-P2", "-n1"] + syntax, input="\n".join(sources).encode()),
    "hpp-rewrite --all -j1": lambda: run(
        [tool, "--all", "-p", os.path.join(work, "build"), "-j1", "--quiet",
         "--output-dir", os.path.join(work, "out1")]),
    "hpp-rewrite --all -j2": lambda: run(
        [tool, "--all", "-p", os.path.join(work, "build"), "-j2", "--quiet",
         "--output-dir", os.path.join(work, "out2")]),
}
times = {k: [] for k in cases}
for r in range(runs):
    for name, case in cases.items():
        times[name].append(case()[0])
        print(f"run {r + 1}/{runs}: {name}: {times[name][-1]:.2f} s", file=sys.stderr)
# Memory: one process each, measured alone (RUSAGE_CHILDREN keeps the
# largest child so far, so each in a fresh interpreter).
def peak(cmd):
    out = subprocess.run([sys.executable, "-c",
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + cmd,
        check=True, capture_output=True, text=True)
    return int(out.stdout) / 1024
mem_clang = peak(syntax + [sources[0]])
mem_j1 = peak([tool, "--all", "-p", os.path.join(work, "build"), "-j1", "--quiet",
               "--output-dir", os.path.join(work, "outm1")])
mem_j2 = peak([tool, "--all", "-p", os.path.join(work, "build"), "-j2", "--quiet",
               "--output-dir", os.path.join(work, "outm2")])
med = {k: statistics.median(v) for k, v in times.items()}
print(f"project: {len(sources)} files, {lines} lines, {runs} runs (medians)")
for k, v in med.items():
    print(f"  {k:45s} {v:7.2f} s")
a1 = med["clang++-19 -fsyntax-only, one at a time"]
a2 = med["clang++-19 -fsyntax-only, two at a time"]
j1 = med["hpp-rewrite --all -j1"]
j2 = med["hpp-rewrite --all -j2"]
print(f"hpp-rewrite -j1 / clang -fsyntax-only (one at a time) = {j1 / a1:.3f} (target <= 1.15)")
print(f"hpp-rewrite -j2 / clang -fsyntax-only (two at a time) = {j2 / a2:.3f}")
print(f"speed-up -j1 -> -j2 = {j1 / j2:.2f}x (target >= 1.8); clang's own: {a1 / a2:.2f}x")
print(f"largest resident set: clang -fsyntax-only (one file) {mem_clang:.0f} MiB, "
      f"hpp-rewrite -j1 {mem_j1:.0f} MiB, -j2 {mem_j2:.0f} MiB")
PY
