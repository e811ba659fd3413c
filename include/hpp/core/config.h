//===- hpp/core/config.h - Backend detection and portability macros -------===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime (include/hpp/hpp.h)
// and the device runtime (runtime/hpp/runtime.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Selects the backend (CUDA, HIP, or the CPU) and defines HPP_HD, the
/// host-and-device qualifier for the small value types shared by every
/// backend.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_CONFIG_H
#define HPP_CORE_CONFIG_H

#if defined(__HIP__) || defined(__HIPCC__)
#define HPP_BACKEND_HIP 1
#elif defined(__CUDACC__)
#define HPP_BACKEND_CUDA 1
#else
#define HPP_BACKEND_CPU 1
#endif

#if defined(HPP_BACKEND_HIP) || defined(HPP_BACKEND_CUDA)
#define HPP_HD __host__ __device__
#define HPP_DEVICE __device__
#else
#define HPP_HD
#define HPP_DEVICE
#endif

/// True while compiling the device side of a GPU translation unit.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define HPP_DEVICE_PASS 1
#endif

#define HPP_VERSION_MAJOR 0
#define HPP_VERSION_MINOR 1
#define HPP_VERSION_STRING "0.1.0"

#endif // HPP_CORE_CONFIG_H
