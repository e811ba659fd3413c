//===- DeviceFunctionRule.h - __device(hpp) functions -----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_DEVICEFUNCTIONRULE_H
#define HPP_REWRITE_LIB_RULES_DEVICEFUNCTIONRULE_H

#include "Framework/TransformerRule.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace hpp {
namespace rewrite {

/// `__device(hpp)` on a function declaration becomes `__host__ __device__`
/// (the function stays callable from host code, as in the dialect), or
/// `__device__` when it runs warp intrinsics or work-group collectives,
/// which only device code can; on a lambda nested in device code it is
/// dropped, and so it is on a lambda outside device code that device code
/// never calls. Errors: the annotation on anything but a function or a
/// lambda; a lambda outside device code that device code calls (nvcc would
/// need --extended-lambda); a function whose annotation a macro writes
/// after the parameter list, or that must become `__device__`; a lambda in
/// device code whose annotation is spelled inside a macro that writes more
/// than it (the adapter's macro guard).
class DeviceFunctionRule : public TransformerRule {
public:
  DeviceFunctionRule(llvm::StringRef Name, RuleContext &Ctx);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void finishTranslationUnit(clang::ASTContext &AST) override;

private:
  /// Collects what finishTranslationUnit checks.
  class Collector : public clang::ast_matchers::MatchFinder::MatchCallback {
  public:
    explicit Collector(DeviceFunctionRule &Rule) : Rule(Rule) {}
    void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

  private:
    DeviceFunctionRule &Rule;
  };

  void checkMacroFunction(const clang::FunctionDecl *FD,
                          clang::ASTContext &AST);
  void findLambdaCalls(clang::ASTContext &AST);
  void checkLambda(const clang::LambdaExpr *L, clang::ASTContext &AST);
  void checkOtherDecl(const clang::Decl *D, clang::ASTContext &AST);

  Collector Collect{*this};
  /// Every `__device(hpp)` lambda of the main file (instantiations too).
  std::vector<const clang::LambdaExpr *> Lambdas;
  /// Where the lambdas passed to parallelFor start.
  llvm::DenseSet<clang::SourceLocation> ParallelForLambdas;
  /// Declarations other than functions that carry `__device(hpp)`.
  std::vector<const clang::Decl *> OtherDecls;
  /// The functions device code runs (canonical declarations), and where
  /// device code first calls each.
  llvm::DenseSet<const clang::FunctionDecl *> Reached;
  llvm::DenseMap<const clang::FunctionDecl *, clang::SourceLocation> CalledAt;
  /// Lambdas whose mark is dropped (or reported), by where they start.
  llvm::DenseSet<clang::SourceLocation> DroppedLambdas;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_RULES_DEVICEFUNCTIONRULE_H
