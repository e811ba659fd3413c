//===- DialectMatchers.h - AST matchers for dialect constructs --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Matchers shared by the rules that look at parallelFor launches, in both
/// their resolved form and their form inside templates (unresolved calls).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_CORE_DIALECTMATCHERS_H
#define HPP_REWRITE_LIB_CORE_DIALECTMATCHERS_H

#include "clang/ASTMatchers/ASTMatchers.h"

namespace hpp {
namespace rewrite {

/// A call to hpp::parallelFor, bound to "call"; a lambda written as its
/// argument is bound to "lambda". Template instantiations are skipped: the
/// pattern is what gets rewritten.
inline clang::ast_matchers::StatementMatcher parallelForCall() {
  using namespace clang::ast_matchers;
  auto Named = hasName("::hpp::parallelFor");
  // Matching as spelled skips template instantiations (and implicit nodes)
  // without isInTemplateInstantiation(), whose hasAncestor would build the
  // parent map of the whole AST.
  return traverse(
      clang::TK_IgnoreUnlessSpelledInSource,
      callExpr(anyOf(callee(functionDecl(Named)),
                     callee(unresolvedLookupExpr(
                         hasAnyDeclaration(namedDecl(Named))))),
               isExpansionInMainFile(),
               optionally(hasAnyArgument(lambdaExpr().bind("lambda"))))
          .bind("call"));
}

/// A parallelFor call whose body lambda is bound to \p BodyID: the root of
/// device code for rules that rewrite inside bodies (rewriteDescendants).
inline clang::ast_matchers::StatementMatcher
parallelForBody(llvm::StringRef BodyID) {
  using namespace clang::ast_matchers;
  return callExpr(parallelForCall(),
                  hasAnyArgument(ignoringImplicit(lambdaExpr().bind(BodyID))));
}

/// The compound statement of a lambda (not its init-captures, which are
/// evaluated where the lambda is written).
AST_MATCHER_P(clang::LambdaExpr, lambdaBody,
              clang::ast_matchers::internal::Matcher<clang::Stmt>, Inner) {
  const clang::Stmt *Body = Node.getBody();
  return Body && Inner.matches(*Body, Finder, Builder);
}

/// A parallelFor call whose body lambda's compound statement is bound to
/// \p BodyID: device code only, without the init-captures.
inline clang::ast_matchers::StatementMatcher
parallelForBodyStmt(llvm::StringRef BodyID) {
  using namespace clang::ast_matchers;
  return callExpr(parallelForCall(),
                  hasAnyArgument(ignoringImplicit(
                      lambdaExpr(lambdaBody(compoundStmt().bind(BodyID))))));
}

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_CORE_DIALECTMATCHERS_H
