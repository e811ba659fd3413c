//===- TransformerRule.h - Rules written as Transformer rules ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Adapts clang::transformer::RewriteRules (makeRule, changeTo, cat, ...)
/// to the Rule interface. Each case of a rule either edits (a leaf) or
/// descends: descend() applies an inner rule to the descendants of a node
/// of its matches, as clang's rewriteDescendants does, but under the
/// adapter's eye, so that every match that edits is one the adapter sees.
/// descend() makes a whole case: a rule that edits a node and the code
/// under it adds two rules (addRule), whose edits come in that order.
/// For each match that edits, the adapter
///
///  - refuses a match whose text lies inside a macro's expansion (the
///    macro guard): Transformer drops such an edit without a word and the
///    code would stay as the input spells it. The error is located at the
///    macro's use: "cannot rewrite <what> '<token>': it is spelled inside
///    the macro 'M'; expand the macro here by hand", with a note where the
///    macro spells it, and nothing is edited;
///  - reports an edit it cannot compute (an llvm::Error of the rule: an
///    internal error) or cannot apply (the rule's edits came back empty:
///    Transformer drops an edit whose range it cannot map to the file,
///    with no error), at the match, with the reason in a note. A match is
///    reported once: a match the guard refuses is not edited, so it cannot
///    fail again. A rule that leaves a match as written on purpose says so
///    (Guard::Leave), or its empty edits are reported;
///  - hands the edits to the EditCollector (which reports what it refuses).
///
/// The reports of a match found by a descent are emitted when the AST
/// traversal reaches the match (where a matcher of its own would report
/// it), so that they come in source order with the other rules'. Once an
/// error has been reported nothing is edited, but the guard still reports.
///
/// A rule says what its edits rewrite (Guard): the noun of the messages,
/// the text its edits replace, and the matches it leaves as written on
/// purpose (neither edited nor reported).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_FRAMEWORK_TRANSFORMERRULE_H
#define HPP_REWRITE_LIB_FRAMEWORK_TRANSFORMERRULE_H

#include "hpp-rewrite/Rule.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// Not for hpp-rewrite's rules: clang's rewriteDescendants hides the
/// matches it finds from the adapter, which could then neither guard nor
/// report them; TransformerRule::descend() is the one to use. Declared so
/// that an unqualified call is ambiguous with clang's and does not compile.
clang::transformer::EditGenerator
rewriteDescendants(std::string NodeId,
                   clang::transformer::RewriteRule Rule) = delete;

/// A Rule whose behaviour is Transformer RewriteRules.
class TransformerRule : public Rule {
public:
  /// What the edits of a rule rewrite.
  struct Guard {
    /// The noun of the messages: "the warp intrinsic".
    std::string What = "this code";
    /// The text a match's edits replace: the macro guard refuses a match
    /// whose target starts inside a macro's expansion (used in the main
    /// file) and cannot be mapped to the file, and the reports point at
    /// it. By default the match's root node.
    clang::transformer::RangeSelector Target =
        clang::transformer::node(clang::transformer::RootID);
    /// The matches the rule leaves as written on purpose: neither edited
    /// nor reported (say why where the rule sets it). None by default.
    std::function<bool(const clang::ast_matchers::MatchFinder::MatchResult &)>
        Leave;
  };

  /// A rule whose edits rewrite what \p G says; it adds its Transformer
  /// rules with addRule() in its constructor.
  TransformerRule(llvm::StringRef Name, RuleContext &Ctx, Guard G);
  /// A rule with the default Guard.
  TransformerRule(llvm::StringRef Name, RuleContext &Ctx);
  ~TransformerRule() override;

  /// A rule of one case, for the rule's constructor: for each match of
  /// \p Scope, the descendants of the node it binds to \p NodeID rewritten
  /// by \p Inner (its cases edit or descend in turn). \p Inner sees its
  /// own bindings only, not those of \p Scope (clang's rewriteDescendants
  /// passes them on, with the outer rule's case tags).
  clang::transformer::RewriteRule
  descend(clang::ast_matchers::internal::DynTypedMatcher Scope,
          std::string NodeID, clang::transformer::RewriteRule Inner);

  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  /// Emits the reports of matches the traversal never reached (none are
  /// expected), then calls finishTranslationUnit().
  void onEndOfTranslationUnit(clang::ASTContext &AST) final;

protected:
  /// Adds \p R, whose matches are independent of the other rules': a node
  /// matched by two rules gets the edits of both, in the order the rules
  /// were added (within one rule, the first matching case applies).
  void addRule(clang::transformer::RewriteRule R);
  /// Called after every matcher has run (onEndOfTranslationUnit).
  virtual void finishTranslationUnit(clang::ASTContext &AST) {}

private:
  /// A case of descend().
  struct Descent {
    std::string NodeID;
    clang::transformer::RewriteRule Inner;
  };
  /// An error and its note.
  struct Report {
    clang::SourceLocation At;
    std::string Message;
    clang::SourceLocation NoteAt;
    std::string Note;
  };
  class RuleCallback;
  class ReportCallback;

  /// Applies the case of \p R that the match \p Result selected; \p Edit:
  /// false once an error has been reported (the guard only); \p Now:
  /// report at once (a match of the traversal itself), else when the
  /// traversal reaches the match.
  void apply(const clang::transformer::RewriteRule &R,
             const clang::ast_matchers::MatchFinder::MatchResult &Result,
             bool Edit, bool Now);
  /// Applies Descents[D] to the match \p Result.
  void applyDescent(unsigned D,
                    const clang::ast_matchers::MatchFinder::MatchResult &Result,
                    bool Edit);
  /// The reason the leaf match \p Result must not or cannot be edited, if
  /// any: the macro guard.
  std::optional<Report>
  guard(const clang::ast_matchers::MatchFinder::MatchResult &Result);
  /// The report of the leaf match \p Result whose edits came back empty.
  Report lostEdit(const clang::ast_matchers::MatchFinder::MatchResult &Result);
  /// The report of the leaf match \p Result whose edit failed with \p Err.
  Report failedEdit(const clang::ast_matchers::MatchFinder::MatchResult &Result,
                    llvm::Error Err);
  void emit(const Report &R);
  /// Emits the reports kept for the node \p Key.
  void emitPending(const void *Key);

  Guard G;
  std::vector<clang::transformer::RewriteRule> Rules;
  std::vector<Descent> Descents;
  std::vector<std::unique_ptr<clang::ast_matchers::MatchFinder::MatchCallback>>
      Callbacks;
  /// Reports of matches found by descents, by their root node, until the
  /// traversal reaches it.
  llvm::MapVector<const void *, llvm::SmallVector<Report, 1>> Pending;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_FRAMEWORK_TRANSFORMERRULE_H
