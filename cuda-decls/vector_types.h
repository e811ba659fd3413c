//===- cuda-decls/vector_types.h - CUDA vector types ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <vector_types.h>: the
/// built-in vector structs (char1 .. double4 with CUDA's alignments, the
/// 16- and 32-byte aligned four-wide 64-bit types of CUDA 13) and dim3. Not
/// for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_VECTOR_TYPES_H
#define __HPP_CUDA_VECTOR_TYPES_H

/// CUDA's include guard, which code tests to see what is included.
#define __VECTOR_TYPES_H__

#include "__hpp_cuda_decls.h"

/// \name The vector types
/// Members x, y, z, w in that order; a two- or four-wide type is aligned to
/// its size (up to 16 bytes), a three-wide one to its element.
/// @{
// clang-format off
struct char1 { signed char x; };
struct __align__(2) char2 { signed char x, y; };
struct char3 { signed char x, y, z; };
struct __align__(4) char4 { signed char x, y, z, w; };

struct uchar1 { unsigned char x; };
struct __align__(2) uchar2 { unsigned char x, y; };
struct uchar3 { unsigned char x, y, z; };
struct __align__(4) uchar4 { unsigned char x, y, z, w; };

struct short1 { short x; };
struct __align__(4) short2 { short x, y; };
struct short3 { short x, y, z; };
struct __align__(8) short4 { short x, y, z, w; };

struct ushort1 { unsigned short x; };
struct __align__(4) ushort2 { unsigned short x, y; };
struct ushort3 { unsigned short x, y, z; };
struct __align__(8) ushort4 { unsigned short x, y, z, w; };

struct int1 { int x; };
struct __align__(8) int2 { int x, y; };
struct int3 { int x, y, z; };
struct __align__(16) int4 { int x, y, z, w; };

struct uint1 { unsigned int x; };
struct __align__(8) uint2 { unsigned int x, y; };
struct uint3 { unsigned int x, y, z; };
struct __align__(16) uint4 { unsigned int x, y, z, w; };

struct long1 { long int x; };
struct __align__(2 * sizeof(long int)) long2 { long int x, y; };
struct long3 { long int x, y, z; };
struct __align__(16) long4 { long int x, y, z, w; };

struct ulong1 { unsigned long int x; };
struct __align__(2 * sizeof(long int)) ulong2 { unsigned long int x, y; };
struct ulong3 { unsigned long int x, y, z; };
struct __align__(16) ulong4 { unsigned long int x, y, z, w; };

struct longlong1 { long long int x; };
struct __align__(16) longlong2 { long long int x, y; };
struct longlong3 { long long int x, y, z; };
struct __align__(16) longlong4 { long long int x, y, z, w; };

struct ulonglong1 { unsigned long long int x; };
struct __align__(16) ulonglong2 { unsigned long long int x, y; };
struct ulonglong3 { unsigned long long int x, y, z; };
struct __align__(16) ulonglong4 { unsigned long long int x, y, z, w; };

struct float1 { float x; };
struct __align__(8) float2 { float x, y; };
struct float3 { float x, y, z; };
struct __align__(16) float4 { float x, y, z, w; };

struct double1 { double x; };
struct __align__(16) double2 { double x, y; };
struct double3 { double x, y, z; };
struct __align__(16) double4 { double x, y, z, w; };

struct __align__(16) long4_16a { long int x, y, z, w; };
struct __align__(32) long4_32a { long int x, y, z, w; };
struct __align__(16) ulong4_16a { unsigned long int x, y, z, w; };
struct __align__(32) ulong4_32a { unsigned long int x, y, z, w; };
struct __align__(16) longlong4_16a { long long int x, y, z, w; };
struct __align__(32) longlong4_32a { long long int x, y, z, w; };
struct __align__(16) ulonglong4_16a { unsigned long long int x, y, z, w; };
struct __align__(32) ulonglong4_32a { unsigned long long int x, y, z, w; };
struct __align__(16) double4_16a { double x, y, z, w; };
struct __align__(32) double4_32a { double x, y, z, w; };
// clang-format on
/// @}

/// A launch's extent: unsigned x, y, z, each 1 unless given; converts to
/// and from uint3. Constexpr as in CUDA, so `constexpr dim3 Block(256);`
/// parses.
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const {
    return uint3{x, y, z};
  }
};

#endif // __HPP_CUDA_VECTOR_TYPES_H
