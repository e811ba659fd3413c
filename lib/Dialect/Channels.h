//===- Channels.h - Channel producers, consumers, coordinators --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the rules need to know of `hpp::Channel<T>` (spec 1.8) and of the
/// lambdas around it, as the device runtime's contract wants them
/// (docs/rules.md, hpp-channel):
///  - a producer (a kernel lambda that captures a Channel by reference)
///    passes `hpp::detail::channelWriter(c, BOUND)`, BOUND being the most
///    `c.write(...)` calls one work-item makes: the runtime reserves each
///    launch's storage from it. writeBound() computes it, and says why when
///    it cannot;
///  - a consumer receives its batch as an `hpp::Span<T>`, whatever the
///    lambda spells (`std::vector<T>` or `Span<T>`): batchUseProblems()
///    finds the uses a Span does not have;
///  - a coordinator stays host code, but must be a pure function of
///    `c->size()`: lib/Dialect/Coordinators.h.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_DIALECT_CHANNELS_H
#define HPP_REWRITE_LIB_DIALECT_CHANNELS_H

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// One thing a channel analysis refuses, and where.
struct ChannelProblem {
  clang::SourceLocation Loc;
  std::string Message;
};

/// A member call `o.m(...)` or `o->m(...)`, resolved or not.
struct MemberCall {
  const clang::CallExpr *Call;
  const clang::Expr *Object;
  std::string Member;
};

/// \p S as a member call, if it is one.
std::optional<MemberCall> memberCall(const clang::Stmt *S);

/// Whether \p E is \p VD (or `*VD`), parentheses and casts aside.
bool namesVariable(const clang::Expr *E, const clang::ValueDecl *VD);

/// The channel (or pointer to one) on which \p S calls member \p Member
/// (any member when empty) of a concrete `hpp::Channel<T>`: resolved, or
/// in a template with dependent arguments. Null otherwise.
const clang::Expr *channelMemberObject(const clang::Stmt *S,
                                       llvm::StringRef Member = "");

/// Whether \p T (references stripped) is an `hpp::Channel` specialization,
/// dependent or not.
bool isChannelType(clang::QualType T);

/// Whether \p T, through references, pointers and arrays, names an
/// `hpp::Channel`.
bool mentionsChannelType(clang::QualType T);

/// T of a concrete `hpp::Channel<T>` (references stripped), or a null type.
clang::QualType channelElementType(clang::QualType T);

/// Whether \p E is the call of `hpp::detail::consumerKernel` that the tool
/// writes in place of a consumer lambda (its own output, parsed again).
bool isConsumerKernelCall(const clang::Expr *E);

/// The most calls of `Chan.write(...)` one execution of \p Body makes: both
/// branches of an `if` or `?:` count as the larger one. std::nullopt, with
/// the reasons in \p Problems, when a write is in a loop, a nested lambda
/// or a body with `goto`, or when \p Body uses \p Chan otherwise than
/// `Chan.write(v)` and `Chan.size()`.
std::optional<unsigned> writeBound(const clang::Stmt *Body,
                                   const clang::VarDecl *Chan,
                                   std::vector<ChannelProblem> *Problems);

/// How a consumer lambda spells its batch parameter.
enum class BatchSpelling {
  Span,       ///< `hpp::Span<T>` (by value or const reference)
  VectorCopy, ///< `std::vector<T>` by value: a copy per work-item
  VectorView, ///< `const std::vector<T> &` (or const by value)
  Other       ///< anything else: refused
};

/// The batch and BoundDistArray parameters of a consumer lambda whose call
/// operator is \p Op: `(Index, batch)`, `(Index, batch, BoundDistArray<U>)`
/// (the spec's order) or `(Index, BoundDistArray<U>, batch)` (the paper's
/// channel reduction, as printed). Bound is null without a third
/// parameter; both are null when \p Op takes fewer than two.
struct ConsumerParams {
  const clang::ParmVarDecl *Batch = nullptr;
  const clang::ParmVarDecl *Bound = nullptr;
};
ConsumerParams consumerParams(const clang::CXXMethodDecl *Op);

/// How parameter \p P spells the batch of a `Channel<Element>`.
BatchSpelling batchSpelling(const clang::ParmVarDecl *P,
                            clang::QualType Element);

/// The uses of the batch parameter \p Batch in \p Body that an
/// `hpp::Span<T>` does not have (anything but `size() empty() data()
/// begin() end()`, `[]` and a range-for), and, for a VectorCopy, whatever
/// may modify its elements, directly or through a pointer or iterator into
/// it (the Span is the launch's, not a copy): lib/Dialect/BatchUses.cpp.
std::vector<ChannelProblem> batchUseProblems(const clang::Stmt *Body,
                                             const clang::ParmVarDecl *Batch,
                                             BatchSpelling Spelling);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_DIALECT_CHANNELS_H
