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
/// rewrite node by node wrap their Transformer rule in inDeviceCode(); rules
/// that analyse whole bodies register deviceRootMatchers().
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_CORE_DEVICEREWRITE_H
#define HPP_REWRITE_LIB_CORE_DEVICEREWRITE_H

#include "Core/DeviceCallGraph.h"
#include "Core/DeviceCode.h"
#include "Core/DialectMatchers.h"

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

/// \p Inner applied to every node of device code.
inline clang::transformer::RewriteRule
inDeviceCode(RuleContext &Ctx, clang::transformer::RewriteRule Inner) {
  using namespace clang::transformer;
  return applyFirst({makeRule(deviceFunction(Ctx).bind("hpp-device-fn"),
                              rewriteDescendants("hpp-device-fn", Inner)),
                     makeRule(parallelForBody("hpp-device-body"),
                              rewriteDescendants("hpp-device-body", Inner)),
                     makeRule(taskBody("hpp-device-body"),
                              rewriteDescendants("hpp-device-body", Inner)),
                     makeRule(taskVarBody("hpp-device-body"),
                              rewriteDescendants("hpp-device-body", Inner)),
                     makeRule(consumerBody("hpp-device-body"),
                              rewriteDescendants("hpp-device-body", Inner))});
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

/// Reports an error, tagged with its rule, for each node bound to \p ID
/// that lies in device code and that the tool cannot edit: a part of a
/// macro's expansion (Transformer rules drop such edits without a word, and
/// the code would stay as the input spells it).
class UneditableInDeviceCode
    : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  UneditableInDeviceCode(llvm::StringRef Rule, RuleContext &Ctx,
                         llvm::StringRef What, llvm::StringRef ID = "callee")
      : Rule(Rule), Ctx(Ctx), What(What), ID(ID) {}
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  llvm::StringRef Rule;
  RuleContext &Ctx;
  llvm::StringRef What;
  llvm::StringRef ID;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_CORE_DEVICEREWRITE_H
