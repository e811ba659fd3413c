//===- ChannelRule.h - Channel consumers and producers ----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_RULES_CHANNELRULE_H
#define HPP_REWRITE_LIB_RULES_CHANNELRULE_H

#include "hpp-rewrite/Rule.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class CallExpr;
class FunctionDecl;
class LambdaExpr;
} // namespace clang

namespace hpp {
namespace rewrite {

/// Lowers `hpp::Channel` (spec 1.8) as the device runtime's contract wants
/// it (docs/rules.md):
///  - the consumer of `c.executeWith(pred, range, [darray,] lambda)`
///    becomes a kernel `hpp_<f>_consumer<k>` taking the range, an
///    `hpp::detail::ChannelBatch<T>` ([the BoundDistArray]) and the
///    captures, and the lambda becomes
///    `hpp::detail::consumerKernel(kernel, captures...)`; the consumers
///    are collected here and outlined with the parallelFor kernels by the
///    driver's outlining phase (lib/Outline/OutlinePhase.h);
///  - a kernel lambda (a parallelFor's or a Task's) that captures a
///    Channel by reference writes through an
///    `hpp::detail::ChannelWriter<T>` (lib/Outline/KernelCaptures.cpp); this
///    rule reports what the write count cannot bound;
///  - the coordinator stays host code as written, checked to be a pure
///    function of `c->size()`.
/// Refuses the rest, at its line: a consumer or coordinator that is not a
/// lambda in the call, one written through a macro, executeWith in device
/// code, a batch used as what a
/// Span is not, a channel reached otherwise
/// than through a by-reference capture in device code, host uses other
/// than `size()` and `executeWith`, and channels of a dependent type.
class ChannelRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void onEndOfTranslationUnit(clang::ASTContext &AST) override;

private:
  void checkExecuteWith(const clang::CallExpr *Call,
                        const clang::ast_matchers::MatchFinder::MatchResult &R);
  /// Checks the consumer \p LE of an executeWith with \p Written arguments
  /// on a channel of \p Element; true when it can be outlined.
  bool checkConsumer(const clang::LambdaExpr *LE, clang::QualType Element,
                     unsigned Written);
  /// Reports the channel captures of the kernel lambda \p LE that cannot
  /// be lowered (a parallelFor's, a Task's or a consumer's).
  void checkCaptures(const clang::LambdaExpr *LE);
  void checkHostCall(const clang::CallExpr *Call,
                     const clang::FunctionDecl *Fn);
  /// Whether \p FD, or a function it is written in, is device code.
  bool inDeviceCode(const clang::FunctionDecl *FD);
  void reportOnce(clang::SourceLocation Loc, const std::string &Message);

  /// What was seen (a default argument is reached from each call).
  llvm::SmallPtrSet<const void *, 16> Seen;
  /// The coordinators' call operators: host code, as written.
  llvm::SmallPtrSet<const clang::FunctionDecl *, 4> Coordinators;
  /// Where an error was given.
  llvm::DenseSet<clang::SourceLocation> Reported;
};

} // namespace rewrite
} // namespace hpp

#endif
