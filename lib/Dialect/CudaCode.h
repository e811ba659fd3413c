//===- CudaCode.h - Recognising CUDA device code ----------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Helpers that recognise CUDA as it is written (port mode, `--port`): the
/// source is parsed by the host side of clang's CUDA front end, so the
/// qualifiers `__global__`, `__device__` and `__host__` are attributes of
/// the functions they mark. Dialect code is parsed as C++, where no
/// function has one: these helpers answer "no" there.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_CUDACODE_H
#define HPP_REWRITE_LIB_DIALECT_CUDACODE_H

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace hpp {
namespace rewrite {

/// The qualifier that makes \p FD device code as its CUDA source writes it:
/// an explicit `__global__` or `__device__` on one of its declarations (not
/// the implicit `__host__ __device__` that clang gives a constexpr function
/// or a lambda). Null for a host function, and outside CUDA source.
const clang::Attr *getCudaDeviceAttr(const clang::FunctionDecl *FD);

/// True when \p FD is a CUDA kernel (`__global__`).
bool isCudaKernel(const clang::FunctionDecl *FD);

/// Matches functions that getCudaDeviceAttr() finds a qualifier on.
AST_MATCHER(clang::FunctionDecl, hasCudaDeviceAttr) {
  return getCudaDeviceAttr(&Node) != nullptr;
}

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_CUDACODE_H
