//===- DeviceCallGraph.h - What device code calls ---------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The call graph of device code: rooted at `__device(hpp)` lambdas and
/// functions (template instantiations included), following direct calls and
/// constructor calls into every function whose body the device compiler
/// will need.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_DEVICECALLGRAPH_H
#define HPP_REWRITE_LIB_ANALYSIS_DEVICECALLGRAPH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <vector>

namespace hpp {
namespace rewrite {

/// How device code may use a callee.
enum class CalleeKind {
  Annotated, ///< carries __device(hpp), or (CUDA source) `__global__` or
             ///< `__device__`, outside the system headers
  Implicit,  ///< inline, constexpr or a template: compiled for the device
  Library,   ///< builtins, the dialect API, device-capable library calls
  Host       ///< none of the above (the host's C++ library included): not
             ///< callable from device code
};

/// Device-reachable functions and the calls between them.
class DeviceCallGraph {
public:
  /// One call site in device code.
  struct Call {
    /// The function whose body makes the call: a lambda's call operator
    /// for a call in a lambda (a parallelFor body); a call in a lambda
    /// nested in device code is made by the lambda and by the body it is
    /// written in (both walks go through it).
    const clang::FunctionDecl *Caller;
    const clang::FunctionDecl *Callee;
    clang::SourceLocation Loc;
    /// The callee's name, as the call spells it (invalid for a
    /// constructor or an operator).
    clang::SourceLocation NameLoc = {};
  };

  explicit DeviceCallGraph(clang::ASTContext &Ctx);

  static CalleeKind classify(const clang::FunctionDecl *FD,
                             const clang::SourceManager &SM);
  /// Whether \p FD is a function of the host's C++ library that nvcc and
  /// hipcc compile for the device (DeviceLibrary.def).
  static bool isDeviceStdFunction(const clang::FunctionDecl *FD);

  /// Every call made by device code, in discovery order.
  const std::vector<Call> &calls() const { return Calls; }
  /// Device functions whose bodies were followed (roots included).
  llvm::ArrayRef<const clang::FunctionDecl *> functions() const {
    return Functions.getArrayRef();
  }
  /// Whether \p FD (or, for a template, one of its instantiations) runs a
  /// warp intrinsic or a work-group collective, directly or through a
  /// callee: it can only be compiled for the device (`__device__`, not
  /// `__host__ __device__`), since nvcc rejects them in host-device
  /// functions.
  bool isDeviceOnly(const clang::FunctionDecl *FD) const;
  /// Whether \p Pattern (a function as written: a template pattern, not an
  /// instantiation) is compiled for the device only because device code
  /// calls it (CalleeKind::Implicit: inline, constexpr or a template,
  /// without `__device(hpp)`): its body is device code for the rules too.
  bool isImplicitDevice(const clang::FunctionDecl *Pattern) const;

private:
  void addFunction(const clang::FunctionDecl *FD);
  void scanBody(const clang::FunctionDecl *FD);
  void findDeviceOnly();

  clang::ASTContext &Ctx;
  llvm::SetVector<const clang::FunctionDecl *> Functions;
  std::vector<Call> Calls;
  /// Device-only functions, as definitions and template patterns.
  llvm::DenseSet<const clang::FunctionDecl *> DeviceOnly;
  /// The canonical declarations of the patterns of the Implicit functions.
  llvm::DenseSet<const clang::FunctionDecl *> ImplicitPatterns;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_DEVICECALLGRAPH_H
