// Port mode with --pch-dir: a CUDA source includes the tool's declarations
// of cuda_runtime.h first (`-include cuda_runtime.h`, as nvcc makes it),
// which are precompiled the second time a set of flags asks for them and
// used from then on (lib/Driver/DialectPCH.h); the output is the same as a
// full parse's. A host source of the project (.cpp, parsed as CUDA but
// with no implicit include) is parsed in full, and so is a source run from
// a directory that holds a cuda_runtime.h of its own (`-include` would
// find that one first).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hpp_rewrite --port --no-pch %s -o %t/full.cpp --
// RUN: %hpp_rewrite --port --no-pch %S/Inputs/no-include.cu -o %t/noinc-full.cpp --
// RUN: %hpp_rewrite --port --pch-dir %t/pch2 %S/Inputs/no-include.cu -o %t/noinc-1.cpp --
// RUN: %hpp_rewrite --port --pch-dir %t/pch2 %S/Inputs/no-include.cu -o %t/noinc-2.cpp --
// RUN: cmp %t/noinc-full.cpp %t/noinc-2.cpp
// RUN: grep -q '#include <hpp/cuda_api.h>' %t/noinc-2.cpp
// RUN: env HPP_REWRITE_PCH_EXPLAIN=1 %hpp_rewrite --port --pch-dir %t/pch %s -o %t/first.cpp -- 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: env HPP_REWRITE_PCH_EXPLAIN=1 %hpp_rewrite --port --pch-dir %t/pch %s -o %t/second.cpp -- 2>&1 | FileCheck %s --check-prefix=USED
// RUN: env HPP_REWRITE_PCH_EXPLAIN=1 %hpp_rewrite --port --pch-dir %t/pch %s -o %t/third.cpp -- 2>&1 | FileCheck %s --check-prefix=USED
// RUN: cmp %t/full.cpp %t/second.cpp
// RUN: cmp %t/full.cpp %t/third.cpp
// FIRST: pch.cu: parsed in full: the first request for these options
// USED: pch.cu: parsed with <cuda_runtime.h> precompiled
// RUN: cp %s %t/host.cpp
// RUN: env HPP_REWRITE_PCH_EXPLAIN=1 %hpp_rewrite --port --pch-dir %t/pch %t/host.cpp -o %t/host.out.cpp -- 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: host.cpp: parsed in full
// RUN: mkdir -p %t/own && touch %t/own/cuda_runtime.h
// RUN: cd %t/own && env HPP_REWRITE_PCH_EXPLAIN=1 %hpp_rewrite --port --pch-dir %t/pch %s -o %t/own.cpp -- 2>&1 | FileCheck %s --check-prefix=OWN
// OWN: pch.cu: parsed in full: the working directory holds a 'cuda_runtime.h' of its own

#include <cuda_runtime.h>

__global__ void sum(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, v);
}

int main() {
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  sum<<<1, 64>>>(in, out);
  return cudaDeviceSynchronize() != cudaSuccess;
}
