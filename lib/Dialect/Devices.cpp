//===- Devices.cpp - hpp::Device arguments of launches --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Devices.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace hpp {
namespace rewrite {

bool isDeviceType(QualType T) {
  if (T.isNull())
    return false;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getName() == "Device" &&
         RD->getQualifiedNameAsString() == "hpp::Device";
}

const Expr *launchDevice(const CallExpr *ParallelFor) {
  if (!ParallelFor || ParallelFor->getNumArgs() == 0)
    return nullptr;
  const Expr *First = ParallelFor->getArg(0);
  return isDeviceType(First->getType()) ? First : nullptr;
}

} // namespace rewrite
} // namespace hpp
