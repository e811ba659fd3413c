//===- DeviceRewrite.h - Rules applied to device code -----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The roots of device code as the rewrite rules see them: `__device(hpp)`
/// functions of the main file (patterns, not template instantiations),
/// parallelFor bodies, Task bodies and Channel consumers; lambdas nested in
/// them are part of them. Rules that
/// rewrite node by node wrap their Transformer rule in inDeviceCode() (the
/// adapter guards each match: lib/Framework/TransformerRule.h); rules that
/// analyse whole bodies register deviceRootMatchers().
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_DEVICEREWRITE_H
#define HPP_REWRITE_LIB_RULES_DEVICEREWRITE_H

#include "Analysis/DeviceCallGraph.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/DialectMatchers.h"
#include "Framework/TransformerRule.h"

#include "hpp-rewrite/Rule.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Transformer/RewriteRule.h"

namespace hpp {
namespace rewrite {

/// A function that device code calls and that is compiled for the device
/// without `__device(hpp)` (inline, constexpr, a template:
/// DeviceCallGraph::isImplicitDevice). The graph is built at the first
/// query, once the whole translation unit is parsed.
AST_MATCHER_P(clang::FunctionDecl, reachedFromDeviceCode, RuleContext *, Ctx) {
  return Ctx->deviceGraph().isImplicitDevice(&Node);
}

/// A device function defined in the main file, as written: one with
/// `__device(hpp)`, or one that device code calls without it (its body is
/// device code all the same).
inline clang::ast_matchers::internal::BindableMatcher<clang::Decl>
deviceFunction(RuleContext &Ctx) {
  using namespace clang::ast_matchers;
  return functionDecl(anyOf(hasDeviceAnnotation(), reachedFromDeviceCode(&Ctx)),
                      isDefinition(), isExpansionInMainFile(),
                      unless(isTemplateInstantiation()),
                      unless(cxxMethodDecl(ofClass(isLambda()))));
}

/// \p Inner applied to every node of device code, under \p Rule's guard
/// (TransformerRule::descend).
inline clang::transformer::RewriteRule
inDeviceCode(TransformerRule &Rule, RuleContext &Ctx,
             clang::transformer::RewriteRule Inner) {
  using namespace clang::transformer;
  return applyFirst(
      {Rule.descend(deviceFunction(Ctx).bind("hpp-device-fn"), "hpp-device-fn",
                    Inner),
       Rule.descend(parallelForBody("hpp-device-body"), "hpp-device-body",
                    Inner),
       Rule.descend(taskBody("hpp-device-body"), "hpp-device-body", Inner),
       Rule.descend(taskVarBody("hpp-device-body"), "hpp-device-body", Inner),
       Rule.descend(consumerBody("hpp-device-body"), "hpp-device-body",
                    Inner)});
}

/// Registers \p CB for each root of device code: a FunctionDecl bound to
/// "hpp-device-fn" or a parallelFor, Task or consumer body (LambdaExpr)
/// bound to "hpp-device-body".
inline void
deviceRootMatchers(clang::ast_matchers::MatchFinder &Finder,
                   clang::ast_matchers::MatchFinder::MatchCallback *CB,
                   RuleContext &Ctx) {
  Finder.addMatcher(deviceFunction(Ctx).bind("hpp-device-fn"), CB);
  Finder.addMatcher(parallelForBody("hpp-device-body"), CB);
  Finder.addMatcher(taskBody("hpp-device-body"), CB);
  Finder.addMatcher(taskVarBody("hpp-device-body"), CB);
  Finder.addMatcher(consumerBody("hpp-device-body"), CB);
}

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_DEVICEREWRITE_H
