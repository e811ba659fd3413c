//===- MissingDeviceAnnotationCheck.cpp -----------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/MissingDeviceAnnotationCheck.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/DialectMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void MissingDeviceAnnotationCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(parallelForCall(), this);
  Finder.addMatcher(taskConstruction(), this);
  Finder.addMatcher(taskVariable(), this);
  Finder.addMatcher(channelExecuteWith(), this);
}

void MissingDeviceAnnotationCheck::run(const MatchFinder::MatchResult &R) {
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (!LE || getDeviceAnnotation(LE->getCallOperator()))
    return;
  SourceLocation BodyStart = LE->getBody()->getBeginLoc();
  error(LE->getBeginLoc(),
        R.Nodes.getNodeAs<Expr>("execute")
            ? "the consumer lambda of executeWith is not marked "
              "'__device(hpp)'"
        : R.Nodes.getNodeAs<CallExpr>("call")
            ? "the lambda passed to parallelFor is not marked '__device(hpp)'"
            : "the lambda of a Task is not marked '__device(hpp)'")
      << FixItHint::CreateInsertion(BodyStart, "__device(hpp) ");
  note(BodyStart, "device code must be marked; add '__device(hpp)' after the "
                  "parameter list");
}

} // namespace rewrite
} // namespace hpp
