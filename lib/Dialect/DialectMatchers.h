//===- DialectMatchers.h - AST matchers for dialect constructs --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Matchers shared by the rules that look at parallelFor launches, Task
/// constructions and Channel consumers, in both their resolved form and
/// their form inside templates (unresolved calls and constructions).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_DIALECTMATCHERS_H
#define HPP_REWRITE_LIB_DIALECT_DIALECTMATCHERS_H

#include "Dialect/Channels.h"
#include "Dialect/Tasks.h"
#include "Framework/RewriteScope.h"

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
               isExpansionInRewrittenFile(),
               optionally(hasAnyArgument(lambdaExpr().bind("lambda"))))
          .bind("call"));
}

/// The compound statement of a lambda (not its init-captures, which are
/// evaluated where the lambda is written).
AST_MATCHER_P(clang::LambdaExpr, lambdaBody,
              clang::ast_matchers::internal::Matcher<clang::Stmt>, Inner) {
  const clang::Stmt *Body = Node.getBody();
  return Body && Inner.matches(*Body, Finder, Builder);
}

/// A lambda whose compound statement is bound to \p BodyID (device code
/// only, without the init-captures).
inline clang::ast_matchers::internal::Matcher<clang::LambdaExpr>
lambdaBodyStmt(llvm::StringRef BodyID) {
  using namespace clang::ast_matchers;
  return lambdaBody(compoundStmt().bind(BodyID));
}

/// A parallelFor call whose body lambda matches \p Body: a root of device
/// code (Dialect/DeviceRootKinds.def).
inline clang::ast_matchers::StatementMatcher parallelForBody(
    clang::ast_matchers::internal::Matcher<clang::LambdaExpr> Body) {
  using namespace clang::ast_matchers;
  return callExpr(parallelForCall(),
                  hasAnyArgument(ignoringImplicit(lambdaExpr(Body))));
}

/// A parallelFor call whose body lambda is bound to \p BodyID.
inline clang::ast_matchers::StatementMatcher
parallelForBody(llvm::StringRef BodyID) {
  using namespace clang::ast_matchers;
  return parallelForBody(lambdaExpr().bind(BodyID));
}

/// A parallelFor call whose body lambda's compound statement is bound to
/// \p BodyID: device code only, without the init-captures.
inline clang::ast_matchers::StatementMatcher
parallelForBodyStmt(llvm::StringRef BodyID) {
  return parallelForBody(lambdaBodyStmt(BodyID));
}

/// An expression or variable whose type is an `hpp::Task<R, IndexT>`.
AST_POLYMORPHIC_MATCHER(hasTaskType,
                        AST_POLYMORPHIC_SUPPORTED_TYPES(clang::Expr,
                                                        clang::ValueDecl)) {
  return taskTypeArgs(Node.getType()).has_value();
}

/// A construction of an hpp::Task that makes it from its body (not a copy
/// or a move), bound to "task"; a lambda written as its argument is bound
/// to "lambda". `Task<R, I> t(f)`, `Task<R, I>(f)`, `Task<R, I>{f}`, and in
/// a template `Task<T, I>(f)`; a variable of a dependent Task type is
/// taskVariable(). As spelled: template instantiations are skipped.
inline clang::ast_matchers::StatementMatcher taskConstruction() {
  using namespace clang::ast_matchers;
  auto Lambda = optionally(hasAnyArgument(lambdaExpr().bind("lambda")));
  return traverse(
      clang::TK_IgnoreUnlessSpelledInSource,
      expr(anyOf(cxxConstructExpr(
                     hasTaskType(),
                     unless(hasDeclaration(cxxConstructorDecl(
                         anyOf(isCopyConstructor(), isMoveConstructor())))),
                     Lambda),
                 cxxUnresolvedConstructExpr(hasTaskType(), Lambda)),
           isExpansionInRewrittenFile())
          .bind("task"));
}

/// Matches a construction with \p Arg among its arguments.
inline clang::ast_matchers::StatementMatcher
constructedFrom(clang::ast_matchers::internal::Matcher<clang::Expr> Arg) {
  using namespace clang::ast_matchers;
  return expr(anyOf(cxxConstructExpr(hasAnyArgument(Arg)),
                    cxxUnresolvedConstructExpr(hasAnyArgument(Arg))));
}

/// A variable of a dependent Task type in a template, initialised by
/// `(f)` or `{f}`: the initialiser is bound to "task", the variable to
/// "task-var", a lambda written as the argument to "lambda".
inline clang::ast_matchers::DeclarationMatcher taskVariable() {
  using namespace clang::ast_matchers;
  auto WithLambda = [](auto Init) {
    return Init(optionally(has(lambdaExpr().bind("lambda")))).bind("task");
  };
  return traverse(clang::TK_IgnoreUnlessSpelledInSource,
                  varDecl(hasTaskType(), isExpansionInRewrittenFile(),
                          hasInitializer(anyOf(WithLambda(parenListExpr),
                                               WithLambda(initListExpr))))
                      .bind("task-var"));
}

/// A Task construction whose body lambda matches \p Body: a root of device
/// code, as parallelForBody(). taskVarBody() is the same for a variable of
/// a dependent Task type.
inline clang::ast_matchers::StatementMatcher
taskBody(clang::ast_matchers::internal::Matcher<clang::LambdaExpr> Body) {
  using namespace clang::ast_matchers;
  return expr(taskConstruction(),
              constructedFrom(ignoringImplicit(lambdaExpr(Body))));
}

/// A Task construction whose body lambda is bound to \p BodyID.
inline clang::ast_matchers::StatementMatcher taskBody(llvm::StringRef BodyID) {
  using namespace clang::ast_matchers;
  return taskBody(lambdaExpr().bind(BodyID));
}

/// The Task body of a variable of a dependent Task type, matching \p Body.
inline clang::ast_matchers::DeclarationMatcher
taskVarBody(clang::ast_matchers::internal::Matcher<clang::LambdaExpr> Body) {
  using namespace clang::ast_matchers;
  return varDecl(taskVariable(),
                 hasInitializer(anyOf(parenListExpr(has(lambdaExpr(Body))),
                                      initListExpr(has(lambdaExpr(Body))))));
}

/// The Task body of a variable of a dependent Task type, bound to \p BodyID.
inline clang::ast_matchers::DeclarationMatcher
taskVarBody(llvm::StringRef BodyID) {
  using namespace clang::ast_matchers;
  return taskVarBody(lambdaExpr().bind(BodyID));
}

/// A Task construction whose body lambda's compound statement is bound to
/// \p BodyID (device code only, without the init-captures);
/// taskVarBodyStmt() for a variable of a dependent Task type.
inline clang::ast_matchers::StatementMatcher
taskBodyStmt(llvm::StringRef BodyID) {
  return taskBody(lambdaBodyStmt(BodyID));
}

inline clang::ast_matchers::DeclarationMatcher
taskVarBodyStmt(llvm::StringRef BodyID) {
  return taskVarBody(lambdaBodyStmt(BodyID));
}

/// The last argument written in a call (the caller's location, a default
/// argument, is not written), as spelled.
AST_MATCHER_P(clang::CallExpr, hasLastWrittenArgument,
              clang::ast_matchers::internal::Matcher<clang::Expr>, Inner) {
  for (unsigned I = Node.getNumArgs(); I-- > 0;)
    if (!clang::isa<clang::CXXDefaultArgExpr>(Node.getArg(I)))
      return Inner.matches(*Node.getArg(I)->IgnoreUnlessSpelledInSource(),
                           Finder, Builder);
  return false;
}

/// A call of `executeWith` on a concrete `hpp::Channel<T>`, resolved or
/// (in a template, with dependent arguments) not.
AST_MATCHER(clang::CallExpr, callsChannelExecuteWith) {
  return channelMemberObject(&Node, "executeWith") != nullptr;
}

/// A call of `hpp::Channel<T>::executeWith` (spec 1.8), bound to
/// "execute"; its first argument, when a lambda, to "coordinator"; its last
/// written one (the consumer), when a lambda, to "lambda". As spelled:
/// template instantiations are skipped.
inline clang::ast_matchers::StatementMatcher channelExecuteWith() {
  using namespace clang::ast_matchers;
  return traverse(
      clang::TK_IgnoreUnlessSpelledInSource,
      callExpr(callsChannelExecuteWith(), isExpansionInRewrittenFile(),
               optionally(hasArgument(
                   0, ignoringImplicit(lambdaExpr().bind("coordinator")))),
               optionally(hasLastWrittenArgument(lambdaExpr().bind("lambda"))))
          .bind("execute"));
}

/// An executeWith call whose consumer lambda matches \p Body: a root of
/// device code, as parallelForBody().
inline clang::ast_matchers::StatementMatcher
consumerBody(clang::ast_matchers::internal::Matcher<clang::LambdaExpr> Body) {
  using namespace clang::ast_matchers;
  return callExpr(channelExecuteWith(),
                  hasLastWrittenArgument(lambdaExpr(Body)));
}

/// An executeWith call whose consumer lambda is bound to \p BodyID.
inline clang::ast_matchers::StatementMatcher
consumerBody(llvm::StringRef BodyID) {
  using namespace clang::ast_matchers;
  return consumerBody(lambdaExpr().bind(BodyID));
}

/// An executeWith call whose consumer lambda's compound statement is bound
/// to \p BodyID (device code only, without the init-captures).
inline clang::ast_matchers::StatementMatcher
consumerBodyStmt(llvm::StringRef BodyID) {
  return consumerBody(lambdaBodyStmt(BodyID));
}

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_DIALECTMATCHERS_H
