//===- Devices.h - hpp::Device arguments of launches ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Spec section 7 (docs/devices.md): a parallelFor may name the device it
/// runs on, `parallelFor(Device(1), range, [darray,] lambda)`. The launch
/// keeps the device expression as written, as its first argument:
/// `hpp::launchKernel(Device(1), kernel, range, ...)`.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_DEVICES_H
#define HPP_REWRITE_LIB_DIALECT_DEVICES_H

#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"

namespace hpp {
namespace rewrite {

/// Whether \p T is `hpp::Device` (or a reference to it, cv-qualified).
bool isDeviceType(clang::QualType T);

/// The device argument of a parallelFor call (its first argument, when it
/// is an `hpp::Device`), or null for the forms without one.
const clang::Expr *launchDevice(const clang::CallExpr *ParallelFor);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_DEVICES_H
