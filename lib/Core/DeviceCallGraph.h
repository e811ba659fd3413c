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
#ifndef HPP_REWRITE_LIB_CORE_DEVICECALLGRAPH_H
#define HPP_REWRITE_LIB_CORE_DEVICECALLGRAPH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <vector>

namespace hpp {
namespace rewrite {

/// How device code may use a callee.
enum class CalleeKind {
  Annotated, ///< carries __device(hpp)
  Implicit,  ///< inline, constexpr or a template: compiled for the device
  Library,   ///< builtins, the dialect API, device-capable C library calls
  Host       ///< none of the above: not callable from device code
};

/// Device-reachable functions and the calls between them.
class DeviceCallGraph {
public:
  /// One call site in device code.
  struct Call {
    const clang::FunctionDecl *Caller; ///< null for a lambda root's body
    const clang::FunctionDecl *Callee;
    clang::SourceLocation Loc;
  };

  explicit DeviceCallGraph(clang::ASTContext &Ctx);

  static CalleeKind classify(const clang::FunctionDecl *FD,
                             const clang::SourceManager &SM);

  /// Every call made by device code, in discovery order.
  const std::vector<Call> &calls() const { return Calls; }
  /// Device functions whose bodies were followed (roots included).
  llvm::ArrayRef<const clang::FunctionDecl *> functions() const {
    return Functions.getArrayRef();
  }

private:
  void addFunction(const clang::FunctionDecl *FD);
  void scanBody(const clang::FunctionDecl *FD);

  clang::ASTContext &Ctx;
  llvm::SetVector<const clang::FunctionDecl *> Functions;
  std::vector<Call> Calls;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_CORE_DEVICECALLGRAPH_H
