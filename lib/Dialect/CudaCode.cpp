//===- CudaCode.cpp - Recognising CUDA device code ------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/CudaCode.h"

using namespace clang;

namespace hpp {
namespace rewrite {

const Attr *getCudaDeviceAttr(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  for (const FunctionDecl *R : FD->redecls()) {
    if (const auto *G = R->getAttr<CUDAGlobalAttr>(); G && !G->isImplicit())
      return G;
    if (const auto *D = R->getAttr<CUDADeviceAttr>(); D && !D->isImplicit())
      return D;
  }
  return nullptr;
}

bool isCudaKernel(const FunctionDecl *FD) {
  return FD && FD->hasAttr<CUDAGlobalAttr>();
}

} // namespace rewrite
} // namespace hpp
