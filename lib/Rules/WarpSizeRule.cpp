//===- WarpSizeRule.cpp - warpSize / MVECTOR_SIZE in device code ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/WarpSizeRule.h"
#include "Core/DeviceCode.h"
#include "Core/DialectMatchers.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

/// The device width, however the source spells it.
static RewriteRule deviceWidth() {
  auto ToGetWarpSize = [](std::string ID) {
    return changeTo(node(ID), cat("hpp::getWarpSize()"));
  };
  return applyFirst({
      // The macro's whole expansion is one parenthesised expression.
      makeRule(parenExpr(isExpandedFromMacro("MVECTOR_SIZE")).bind("w"),
               ToGetWarpSize("w")),
      makeRule(declRefExpr(to(varDecl(hasName("::warpSize")))).bind("w"),
               ToGetWarpSize("w")),
  });
}

WarpSizeRule::WarpSizeRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(
          Name, Ctx,
          applyFirst(
              {makeRule(functionDecl(hasDeviceAnnotation(),
                                     isExpansionInMainFile(),
                                     unless(isTemplateInstantiation()),
                                     unless(cxxMethodDecl(ofClass(isLambda()))))
                            .bind("fn"),
                        rewriteDescendants("fn", deviceWidth())),
               makeRule(parallelForBody("body"),
                        rewriteDescendants("body", deviceWidth()))})) {}

} // namespace rewrite
} // namespace hpp
