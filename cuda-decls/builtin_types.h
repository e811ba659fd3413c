//===- cuda-decls/builtin_types.h - CUDA built-in types ---------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <builtin_types.h>: the
/// vector types and the runtime's types, that is <vector_types.h> and
/// <driver_types.h>.
/// Not for compiling.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_FORWARD_BUILTIN_TYPES_H
#define __HPP_CUDA_FORWARD_BUILTIN_TYPES_H

#include "driver_types.h"

#endif // __HPP_CUDA_FORWARD_BUILTIN_TYPES_H
