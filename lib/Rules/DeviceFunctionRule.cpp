//===- DeviceFunctionRule.cpp - __device(hpp) functions -------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/DeviceFunctionRule.h"
#include "Core/DeviceCode.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

namespace {
/// The annotation written on this very declaration (not inherited).
AST_MATCHER(FunctionDecl, hasOwnDeviceAnnotation) {
  const AnnotateAttr *A = getDeviceAnnotation(&Node);
  return A && llvm::is_contained(Node.attrs(), A) && !A->isInherited();
}

/// Selects the `__device(hpp)` text of the function bound to \p ID.
RangeSelector deviceAnnotation(std::string ID) {
  return [ID](const MatchFinder::MatchResult &R)
             -> llvm::Expected<CharSourceRange> {
    const auto *FD = R.Nodes.getNodeAs<FunctionDecl>(ID);
    return annotationRange(getDeviceAnnotation(FD), *R.SourceManager);
  };
}
} // namespace

DeviceFunctionRule::DeviceFunctionRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(
          Name, Ctx,
          makeRule(functionDecl(hasOwnDeviceAnnotation(),
                                isExpansionInMainFile(),
                                unless(isTemplateInstantiation()),
                                unless(cxxMethodDecl(ofClass(isLambda()))))
                       .bind("fn"),
                   changeTo(deviceAnnotation("fn"),
                            cat("__host__ __device__")))) {}

} // namespace rewrite
} // namespace hpp
