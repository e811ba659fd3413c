#!/usr/bin/env bash
# Installs the Debian packages hpp-rewrite needs to build and test, when they
# are missing. LLVM/Clang 19 and lit come from Debian (clang-tools-19 has
# clang-apply-replacements, which the --export-fixes test runs); hipcc
# (HIP 5.2) is used for the AMD compile tests. nvcc (CUDA) is used when
# /usr/local/cuda has it; Debian does not ship a CUDA 13 toolchain, so it
# is not installed. libclang-rt-19-dev has libFuzzer and the sanitizer
# runtimes of clang-19 (the fuzzing build, scripts/build-fuzzer.sh).
# libgtest-dev is GoogleTest, built (libgtest.a, libgtest_main.a) with its
# CMake package, for the unit tests (unittests/). libzstd-dev lets CMake
# link LLVM's static libraries (their CMake targets name zstd's), which
# makes the tool start four times faster (lib/CMakeLists.txt).
# libopenmpi-dev and openmpi-bin are Open MPI (mpicxx, mpirun) for the MPI
# example, examples/heat_mpi.cpp, and its test (test/examples/heat_mpi.test).
set -euo pipefail

packages=(cmake ninja-build g++ python3 llvm-19-dev libclang-19-dev clang-19
          llvm-19-tools clang-tools-19 libclang-rt-19-dev libgtest-dev libzstd-dev hipcc
          rocm-device-libs libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi
