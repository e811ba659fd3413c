//===- DeviceRoots.cpp - The outermost pieces of device code --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/DeviceRoots.h"
#include "Dialect/DeviceCode.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void DeviceRoots::addMatchers(MatchFinder &Finder,
                              MatchFinder::MatchCallback *CB) {
  Finder.addMatcher(functionDecl(hasDeviceAnnotation(), isDefinition(),
                                 isExpansionInMainFile(),
                                 unless(isTemplateInstantiation()),
                                 unless(cxxMethodDecl(ofClass(isLambda()))))
                        .bind("hpp-device-function"),
                    CB);
  // As spelled: a lambda in a template is seen once, in the pattern.
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               lambdaExpr(isDeviceLambda(), isExpansionInMainFile())
                   .bind("hpp-device-lambda")),
      CB);
}

std::optional<DeviceRoot>
DeviceRoots::take(const MatchFinder::MatchResult &Result) {
  DeviceRoot Root{nullptr, nullptr};
  SourceRange Range;
  if (const auto *FD =
          Result.Nodes.getNodeAs<FunctionDecl>("hpp-device-function")) {
    Root = {FD, FD->getBody()};
    Range = FD->getSourceRange();
  } else if (const auto *LE =
                 Result.Nodes.getNodeAs<LambdaExpr>("hpp-device-lambda")) {
    Root = {LE->getCallOperator(), LE->getBody()};
    Range = LE->getSourceRange();
  }
  if (!Root.Body)
    return std::nullopt;
  // Matches come in traversal order: an enclosing root before its lambdas.
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Begin = SM.getExpansionLoc(Range.getBegin());
  for (SourceRange S : Seen)
    if (SM.isPointWithin(Begin, S.getBegin(), S.getEnd()))
      return std::nullopt;
  Seen.push_back({Begin, SM.getExpansionLoc(Range.getEnd())});
  return Root;
}

} // namespace rewrite
} // namespace hpp
