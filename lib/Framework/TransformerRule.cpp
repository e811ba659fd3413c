//===- TransformerRule.cpp - Rules written as Transformer rules -----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Framework/TransformerRule.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/SourceCode.h"
#include "llvm/Support/Error.h"

#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using clang::ast_matchers::internal::DynTypedMatcher;

namespace hpp {
namespace rewrite {

namespace {

/// The ID descend() binds the match of its scope to: how the adapter tells
/// a case that descends from one that edits.
const char DescentPrefix[] = "hpp-descent-";

std::string descentID(unsigned D) { return DescentPrefix + std::to_string(D); }

/// Matches a node once for each descendant that \p Inner matches (clang's
/// rewriteDescendants matches so, with a matcher of its own).
template <typename T>
class ForEachDescendant : public ast_matchers::internal::MatcherInterface<T> {
public:
  explicit ForEachDescendant(DynTypedMatcher Inner) : Inner(std::move(Inner)) {}

  bool matches(
      const T &Node, ast_matchers::internal::ASTMatchFinder *Finder,
      ast_matchers::internal::BoundNodesTreeBuilder *Builder) const override {
    return Finder->matchesDescendantOf(
        Node, Inner, Builder, ast_matchers::internal::ASTMatchFinder::BK_All);
  }

private:
  DynTypedMatcher Inner;
};

/// Calls a function for each match.
class Each : public MatchFinder::MatchCallback {
public:
  explicit Each(llvm::function_ref<void(const MatchFinder::MatchResult &)> F)
      : F(F) {}
  void run(const MatchFinder::MatchResult &R) override { F(R); }

private:
  llvm::function_ref<void(const MatchFinder::MatchResult &)> F;
};

/// The node the match \p R's rule matched (its memoization key).
const void *rootOf(const MatchFinder::MatchResult &R) {
  auto It = R.Nodes.getMap().find(transformer::RootID);
  return It == R.Nodes.getMap().end() ? nullptr
                                      : It->second.getMemoizationData();
}

} // namespace

/// Applies a rule to the matches of its matchers in the traversal.
class TransformerRule::RuleCallback : public MatchFinder::MatchCallback {
public:
  RuleCallback(TransformerRule &Self, size_t Index)
      : Self(Self), Index(Index) {}
  void run(const MatchFinder::MatchResult &R) override {
    Self.apply(Self.Rules[Index], R,
               /*Edit=*/!R.Context->getDiagnostics().hasErrorOccurred(),
               /*Now=*/true);
  }
  llvm::StringRef getID() const override { return Self.name(); }

private:
  TransformerRule &Self;
  size_t Index;
};

/// Emits the reports kept for a node when the traversal reaches it.
class TransformerRule::ReportCallback : public MatchFinder::MatchCallback {
public:
  explicit ReportCallback(TransformerRule &Self) : Self(Self) {}
  void run(const MatchFinder::MatchResult &R) override {
    Self.emitPending(rootOf(R));
  }
  llvm::StringRef getID() const override { return Self.name(); }

private:
  TransformerRule &Self;
};

TransformerRule::TransformerRule(llvm::StringRef Name, RuleContext &Ctx,
                                 Guard G)
    : Rule(Name, Ctx), G(std::move(G)) {}

TransformerRule::TransformerRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(Name, Ctx, Guard()) {}

TransformerRule::~TransformerRule() = default;

void TransformerRule::addRule(transformer::RewriteRule R) {
  Rules.push_back(std::move(R));
}

transformer::RewriteRule
TransformerRule::descend(DynTypedMatcher Scope, std::string NodeID,
                         transformer::RewriteRule Inner) {
  unsigned D = Descents.size();
  Descents.push_back({NodeID, std::move(Inner)});
  Scope.setAllowBind(true);
  std::optional<DynTypedMatcher> Bound = Scope.tryBind(descentID(D));
  // The adapter applies the descent itself (applyDescent); nothing else
  // evaluates a case's edits.
  return transformer::detail::makeRule(
      *Bound,
      [](const MatchFinder::MatchResult &)
          -> llvm::Expected<llvm::SmallVector<transformer::Edit, 1>> {
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "a case of descend() evaluated outside its TransformerRule");
      });
}

void TransformerRule::registerMatchers(MatchFinder &Finder) {
  for (size_t I = 0; I < Rules.size(); ++I) {
    Callbacks.push_back(std::make_unique<RuleCallback>(*this, I));
    for (const DynTypedMatcher &M :
         transformer::detail::buildMatchers(Rules[I]))
      Finder.addDynamicMatcher(M, Callbacks.back().get());
  }
  if (Descents.empty())
    return;
  // The matchers of each rule a descent applies (once each: descents often
  // share one), for the reports of their matches.
  auto Reports = std::make_unique<ReportCallback>(*this);
  std::set<std::vector<std::pair<ASTNodeKind, uint64_t>>> Seen;
  for (const Descent &D : Descents) {
    std::vector<std::pair<ASTNodeKind, uint64_t>> Key;
    for (const auto &Case : D.Inner.Cases)
      Key.push_back(Case.Matcher.getID());
    if (!Seen.insert(Key).second)
      continue;
    for (const DynTypedMatcher &M : transformer::detail::buildMatchers(D.Inner))
      Finder.addDynamicMatcher(M, Reports.get());
  }
  Callbacks.push_back(std::move(Reports));
}

void TransformerRule::onEndOfTranslationUnit(ASTContext &AST) {
  // A match the traversal did not reach again: reported late, not lost.
  auto Left = std::move(Pending);
  Pending.clear();
  for (const auto &Entry : Left)
    for (const Report &R : Entry.second)
      emit(R);
  finishTranslationUnit(AST);
}

void TransformerRule::apply(const transformer::RewriteRule &R,
                            const MatchFinder::MatchResult &Result, bool Edit,
                            bool Now) {
  const auto &Nodes = Result.Nodes.getMap();
  auto It = Nodes.lower_bound(DescentPrefix);
  if (It != Nodes.end() &&
      llvm::StringRef(It->first).starts_with(DescentPrefix)) {
    unsigned D = 0;
    if (!llvm::StringRef(It->first)
             .drop_front(sizeof(DescentPrefix) - 1)
             .getAsInteger(10, D) &&
        D < Descents.size())
      return applyDescent(D, Result, Edit);
  }

  // A case that edits.
  if (G.Leave && G.Leave(Result))
    return;
  std::optional<Report> Refused = guard(Result);
  if (!Refused && Edit) {
    size_t I = transformer::detail::findSelectedCase(Result, R);
    llvm::Expected<llvm::SmallVector<transformer::Edit, 1>> Edits =
        R.Cases[I].Edits(Result);
    if (!Edits)
      Refused = failedEdit(Result, Edits.takeError());
    else if (Edits->empty())
      Refused = lostEdit(Result);
    else
      for (const transformer::Edit &E : *Edits) {
        if (E.Kind == transformer::EditKind::Range)
          Ctx.Edits.replace(E.Range, E.Replacement, Name);
        else
          Refused = failedEdit(
              Result, llvm::createStringError(
                          llvm::inconvertibleErrorCode(),
                          "the rule adds an #include, which TransformerRule "
                          "does not apply"));
      }
  }
  if (!Refused)
    return;
  if (Now)
    emit(*Refused);
  else
    Pending[rootOf(Result)].push_back(std::move(*Refused));
}

void TransformerRule::applyDescent(unsigned D,
                                   const MatchFinder::MatchResult &Result,
                                   bool Edit) {
  // Descents never grows while matching: the reference stays valid.
  const Descent &Dsc = Descents[D];
  auto It = Result.Nodes.getMap().find(Dsc.NodeID);
  const DynTypedNode *Node =
      It == Result.Nodes.getMap().end() ? nullptr : &It->second;
  if (!Node || (!Node->get<Decl>() && !Node->get<Stmt>())) {
    emit(failedEdit(Result, llvm::createStringError(
                                llvm::inconvertibleErrorCode(),
                                "descend(): '" + Dsc.NodeID +
                                    "' is not bound to a declaration or a "
                                    "statement")));
    return;
  }
  auto ApplyInner = [&](const MatchFinder::MatchResult &Inner) {
    apply(Dsc.Inner, Inner, Edit, /*Now=*/false);
  };
  Each Apply(ApplyInner);
  MatchFinder Finder;
  for (const DynTypedMatcher &M :
       transformer::detail::buildMatchers(Dsc.Inner)) {
    if (Node->get<Decl>())
      Finder.addMatcher(
          ast_matchers::internal::makeMatcher(new ForEachDescendant<Decl>(M)),
          &Apply);
    else
      Finder.addMatcher(
          ast_matchers::internal::makeMatcher(new ForEachDescendant<Stmt>(M)),
          &Apply);
  }
  Finder.match(*Node, *Result.Context);
}

std::optional<TransformerRule::Report>
TransformerRule::guard(const MatchFinder::MatchResult &Result) {
  llvm::Expected<CharSourceRange> Range = G.Target(Result);
  if (!Range) {
    // Computing the edits reports it if they need the target.
    llvm::consumeError(Range.takeError());
    return std::nullopt;
  }
  SourceLocation Begin = Range->getBegin();
  if (!Begin.isMacroID())
    return std::nullopt;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation At = SM.getExpansionLoc(Begin);
  if (!isWrittenInRewrittenFile(SM, At) ||
      tooling::getFileRangeForEdit(*Range, *Result.Context))
    return std::nullopt;
  const LangOptions &LO = Result.Context->getLangOpts();
  SourceLocation Spelled = SM.getSpellingLoc(Begin);
  llvm::StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Spelled, Spelled), SM, LO);
  llvm::StringRef Macro = Lexer::getImmediateMacroName(Begin, SM, LO);
  return Report{At,
                ("cannot rewrite " + G.What + " '" + Text +
                 "': it is spelled inside the macro '" + Macro +
                 "'; expand the macro here by hand")
                    .str(),
                Spelled, "spelled here"};
}

/// Where the reports about the match \p Result go: the start of what its
/// edits rewrite, in the file.
static SourceLocation reportLoc(const MatchFinder::MatchResult &Result,
                                const transformer::RangeSelector &Target) {
  llvm::Expected<CharSourceRange> Range = Target(Result);
  if (!Range) {
    llvm::consumeError(Range.takeError());
    return transformer::detail::getRuleMatchLoc(Result);
  }
  return Result.SourceManager->getExpansionLoc(Range->getBegin());
}

TransformerRule::Report
TransformerRule::lostEdit(const MatchFinder::MatchResult &Result) {
  // Transformer says nothing of the edit it dropped: the reason given is
  // the target's when it has one, else what makes Transformer drop edits.
  const SourceManager &SM = *Result.SourceManager;
  std::string Why = "an edit of the rewrite touches text that a macro's "
                    "expansion writes (expand the macro here by hand), text "
                    "of a system header, or more than one file";
  llvm::Expected<CharSourceRange> Range = G.Target(Result);
  if (!Range) {
    llvm::consumeError(Range.takeError());
  } else {
    CharSourceRange File =
        Lexer::makeFileCharRange(*Range, SM, Result.Context->getLangOpts());
    if (File.isInvalid())
      Why = "the text it replaces is not one stretch of the file: part of "
            "it comes from a macro's expansion; expand the macro here by hand";
    else if (llvm::Error E = tooling::validateEditRange(File, SM))
      Why = "the text it replaces cannot be edited: " +
            llvm::toString(std::move(E));
  }
  SourceLocation At = reportLoc(Result, G.Target);
  return Report{At,
                "cannot rewrite " + G.What +
                    ": an edit it needs falls where the tool cannot edit, and "
                    "the code would stay as written",
                At, Why};
}

TransformerRule::Report
TransformerRule::failedEdit(const MatchFinder::MatchResult &Result,
                            llvm::Error Err) {
  SourceLocation At = reportLoc(Result, G.Target);
  return Report{At,
                "internal error: cannot compute the rewrite of " + G.What +
                    "; the file is not rewritten (please report this, with "
                    "the input)",
                At, "the edit failed: " + llvm::toString(std::move(Err))};
}

void TransformerRule::emit(const Report &R) {
  error(R.At, R.Message);
  note(R.NoteAt, R.Note);
}

void TransformerRule::emitPending(const void *Key) {
  auto It = Pending.find(Key);
  if (It == Pending.end())
    return;
  llvm::SmallVector<Report, 1> Reports = std::move(It->second);
  Pending.erase(It);
  for (const Report &R : Reports)
    emit(R);
}

} // namespace rewrite
} // namespace hpp
