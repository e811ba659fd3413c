//===- cuda-decls/__hpp_cuda_decls.h - Shared CUDA parse setup --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declarations of the CUDA headers: the piece
/// every other header of cuda-decls/ includes first. NOT for compiling: it
/// has no definitions, only what clang needs to parse CUDA sources in a
/// host-only pass (`-x cuda --cuda-host-only -nocudainc -nocudalib`) with
/// no CUDA SDK installed. Written from the CUDA documentation; no text of
/// the SDK's headers.
///
/// It defines the execution-space and storage keywords that nvcc predefines
/// and that clang spells as attributes, the version macros of the CUDA
/// release these declarations describe (12.8 unless the command line sets
/// __CUDACC_VER_MAJOR__ and __CUDACC_VER_MINOR__), and includes the
/// standard headers that nvcc's <cuda_runtime.h> brings in, so that a
/// source that relies on them parses as it compiles under nvcc.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_DECLS_H
#define __HPP_CUDA_DECLS_H

#if !defined(__clang__) || !defined(__CUDA__)
#error "cuda-decls/ is for hpp-rewrite's clang CUDA parse only, not compiling"
#endif
#if !defined(__cplusplus) || __cplusplus < 201103L
#error "cuda-decls/ needs C++11 or later"
#endif

/// \name The CUDA release these declarations describe
/// nvcc predefines these; clang does not. CUDART_VERSION (cuda_runtime_api.h)
/// and CUDA_VERSION (cuda.h) follow them.
/// @{
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#endif
#ifndef __CUDACC_VER_MINOR__
#define __CUDACC_VER_MINOR__ 8
#endif
#ifndef __CUDACC_VER_BUILD__
#define __CUDACC_VER_BUILD__ 0
#endif
#define __CUDA_API_VER_MAJOR__ __CUDACC_VER_MAJOR__
#define __CUDA_API_VER_MINOR__ __CUDACC_VER_MINOR__
#define __HPP_CUDA_DECLS_VERSION                                               \
  (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10)
/// @}

/// \name Execution spaces and memory spaces
/// clang's own CUDA attributes. `__noinline__` is a keyword of clang's CUDA
/// mode (and libstdc++ spells `__attribute__((__noinline__))`), so it is not
/// a macro here; `__restrict__` is a keyword too.
/// @{
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDART_CB
#define CUDAAPI
/// @}

/// \name Attributes clang 19 does not know, or drops, in a host-only parse
/// Kept in the AST as annotations (`annotate("__grid_constant__")` and so
/// on), so that the tool can see them, instead of an unknown- or
/// ignored-attribute warning. clang takes `managed` only in HIP; a
/// __managed__ variable is a __device__ variable, as in CUDA, annotated.
/// @{
#define __managed__                                                            \
  __attribute__((device)) __attribute__((annotate("__managed__")))
/// __launch_bounds__(maxThreads[, minBlocks[, maxBlocksPerCluster]]): the
/// third argument, which clang's host side drops the whole attribute for
/// (with a warning: it has no GPU architecture), is kept as an annotation.
#define __launch_bounds__(...)                                                 \
  __HPP_LAUNCH_BOUNDS_N(__VA_ARGS__, __HPP_LAUNCH_BOUNDS_3,                    \
                        __HPP_LAUNCH_BOUNDS_2, __HPP_LAUNCH_BOUNDS_1, )        \
  (__VA_ARGS__)
#define __HPP_LAUNCH_BOUNDS_N(_1, _2, _3, Name, ...) Name
#define __HPP_LAUNCH_BOUNDS_1(t) __attribute__((launch_bounds(t)))
#define __HPP_LAUNCH_BOUNDS_2(t, b) __attribute__((launch_bounds(t, b)))
#define __HPP_LAUNCH_BOUNDS_3(t, b, c)                                         \
  __attribute__((launch_bounds(t, b)))                                         \
  __attribute__((annotate("__launch_bounds__.maxBlocksPerCluster", c)))
#define __grid_constant__ __attribute__((annotate("__grid_constant__")))
#define __cluster_dims__(...)                                                  \
  __attribute__((annotate("__cluster_dims__", __VA_ARGS__)))
#define __maxnreg__(n) __attribute__((annotate("__maxnreg__", n)))
/// @}

/// \name Standard headers that nvcc's <cuda_runtime.h> includes
/// Code that calls printf, memcpy, sqrt or assert with only <cuda_runtime.h>
/// included compiles under nvcc, so it must parse here. Included after the
/// macros above: clang's cuda_wrappers/<new> adds the device operator new
/// only once `__device__` is defined.
/// @{
#include <assert.h>
#include <cmath>
#include <cstdlib>
#include <limits.h>
#include <math.h>
#include <new>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <type_traits>
#include <utility>
/// @}

#endif // __HPP_CUDA_DECLS_H
