//===- DeviceCodeMap.h - The one definition of device code ------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What device code is, answered in one place. A *root* is where device
/// code starts; its kinds are the rows of Dialect/DeviceRootKinds.def: a
/// `__device(hpp)` function, a function device code calls without the mark
/// (DeviceCallGraph::isImplicitDevice), and the body lambdas of
/// parallelFor, Task and Channel::executeWith. *Device code* is the text of
/// the roots of the main file, as written (template patterns, not
/// instantiations), lambdas nested in them included: a function's every
/// declaration (its default arguments are evaluated in device code), a
/// lambda's body only (its init-captures are evaluated where it is
/// written, in host code).
///
/// Everything that asks "is this device code?" asks here:
///  - a rule that rewrites device code node by node wraps its Transformer
///    rule in inDeviceCode();
///  - a rule that analyses whole bodies registers addDeviceRootMatchers()
///    and asks RuleContext::deviceCode() which root a match found
///    (DeviceCodeMap::root(): each root with its body, and whether it is
///    outermost);
///  - anything else asks DeviceCodeMap::contains() for a location.
///
/// The call graph (DeviceCallGraph) is what these roots reach; it starts
/// from every `__device(hpp)` function and lambda of the translation unit,
/// instantiations included, and decides the implicit roots.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_DEVICECODEMAP_H
#define HPP_REWRITE_LIB_ANALYSIS_DEVICECODEMAP_H

#include "Analysis/DeviceCallGraph.h"
#include "Dialect/CudaCode.h"
#include "Dialect/DeviceCode.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <vector>

namespace hpp {
namespace rewrite {

class TransformerRule;
struct RuleContext;

/// The kinds of roots of device code, one per row of DeviceRootKinds.def.
enum class DeviceRootKind {
#define HPP_DEVICE_ROOT(Kind, Matcher, Extent) Kind,
#include "Dialect/DeviceRootKinds.def"
};

/// What of a root is device code (the Extent column of the table).
enum class DeviceRootExtent {
  /// A function: each declaration whole, default arguments included.
  Declaration,
  /// A lambda: its compound statement; its init-captures are host code.
  LambdaBody,
};

/// The Extent of \p Kind's row.
DeviceRootExtent extentOf(DeviceRootKind Kind);
/// The name of \p Kind's row ("ParallelForBody").
llvm::StringRef kindName(DeviceRootKind Kind);

/// How the matchers of device code reach the device call graph: RuleContext
/// builds it at the first query, once the translation unit is parsed.
using DeviceGraphSource = std::function<const DeviceCallGraph &()>;

/// A function that device code calls and that is compiled for the device
/// without `__device(hpp)` (DeviceCallGraph::isImplicitDevice).
AST_MATCHER_P(clang::FunctionDecl, isImplicitDevice, DeviceGraphSource, Graph) {
  return Graph().isImplicitDevice(&Node);
}

/// A function declared in the main file, as written: not a template
/// instantiation, and not a lambda's call operator (a lambda is a root as
/// the body of its construct).
inline clang::ast_matchers::DeclarationMatcher functionAsWritten() {
  using namespace clang::ast_matchers;
  return functionDecl(isExpansionInRewrittenFile(),
                      unless(isTemplateInstantiation()),
                      unless(cxxMethodDecl(ofClass(isLambda()))));
}

/// The AnnotatedFunction roots: every declaration of a `__device(hpp)`
/// function of the main file, as written. (The graph is for the kinds that
/// need it: the table calls every Declaration matcher with it.)
inline clang::ast_matchers::DeclarationMatcher
annotatedDeviceFunction(const DeviceGraphSource &) {
  using namespace clang::ast_matchers;
  return functionDecl(functionAsWritten(), hasDeviceAnnotation());
}

/// The CudaFunction roots: every declaration of a function of the main
/// file, as written, that its CUDA source marks `__global__` or
/// `__device__` (port mode).
inline clang::ast_matchers::DeclarationMatcher
cudaDeviceFunction(const DeviceGraphSource &) {
  using namespace clang::ast_matchers;
  return functionDecl(functionAsWritten(), hasCudaDeviceAttr());
}

/// The ImplicitFunction roots: every declaration of a function of the main
/// file, as written, that device code calls without `__device(hpp)`.
inline clang::ast_matchers::DeclarationMatcher
implicitDeviceFunction(const DeviceGraphSource &Graph) {
  using namespace clang::ast_matchers;
  return functionDecl(functionAsWritten(), isImplicitDevice(Graph));
}

/// One root of device code.
struct DeviceRoot {
  DeviceRootKind Kind;
  /// The function (its definition), or the lambda's call operator.
  const clang::FunctionDecl *Function;
  /// The lambda of a LambdaBody root; null for a function.
  const clang::LambdaExpr *Lambda;
  /// The body, nested lambdas included.
  const clang::Stmt *Body;
  /// False when the root lies inside a root found before it (a method of a
  /// local class in a body, a body in a device function): its code is that
  /// root's code too, so a rule that must walk each piece of device code
  /// once (the divergence checks) skips it.
  bool Outermost;
};

/// The device code of one translation unit: its roots (each with a body,
/// in the order the AST matchers find them) and the source ranges they
/// cover. Built once, on the whole translation unit (traversing what the
/// driver's traversal scope holds: the main file's declarations) at
/// RuleContext::deviceCode()'s first query.
class DeviceCodeMap {
public:
  DeviceCodeMap(clang::ASTContext &AST, const DeviceCallGraph &Graph);

  /// Every root, in the order the AST matchers find them, which is the order
  /// of a rule's callbacks: an enclosing root before the roots inside it
  /// (the matcher visits a node's children before their descendants).
  llvm::ArrayRef<DeviceRoot> roots() const { return Roots; }
  /// The root that a match of addDeviceRootMatchers() found; null when it
  /// found none with a body (a defaulted function).
  const DeviceRoot *
  root(const clang::ast_matchers::MatchFinder::MatchResult &Result) const;
  /// The root whose function or lambda call operator is \p FD; null when
  /// \p FD is none.
  const DeviceRoot *rootOf(const clang::FunctionDecl *FD) const;
  /// True when \p Loc (its expansion) lies in device code of the main file.
  bool contains(clang::SourceLocation Loc) const;

private:
  const clang::SourceManager &SM;
  std::vector<DeviceRoot> Roots;
  /// Roots by their matched node: the FunctionDecl or the LambdaExpr.
  llvm::DenseMap<const void *, unsigned> RootIndex;
  /// The expansion ranges of device code, for contains().
  std::vector<clang::SourceRange> Code;
};

/// Registers \p CB for each root of device code (every row of the table);
/// DeviceCodeMap::root() tells which root a match found.
void addDeviceRootMatchers(clang::ast_matchers::MatchFinder &Finder,
                           clang::ast_matchers::MatchFinder::MatchCallback *CB,
                           RuleContext &Ctx);
/// The same, with the call graph from \p Graph (outside a rule).
void addDeviceRootMatchers(clang::ast_matchers::MatchFinder &Finder,
                           clang::ast_matchers::MatchFinder::MatchCallback *CB,
                           const DeviceGraphSource &Graph);

/// \p Inner applied to every node of device code, under \p Rule's guard
/// (TransformerRule::descend): each declaration of a device function, each
/// body of a lambda root.
clang::transformer::RewriteRule
inDeviceCode(TransformerRule &Rule, RuleContext &Ctx,
             clang::transformer::RewriteRule Inner);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_DEVICECODEMAP_H
