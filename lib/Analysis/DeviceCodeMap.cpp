//===- DeviceCodeMap.cpp - The one definition of device code --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceCodeMap.h"
#include "Dialect/DialectMatchers.h"
#include "Framework/TransformerRule.h"

#include "hpp-rewrite/Rule.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {

/// The ID the root matchers bind a root to: the FunctionDecl (a
/// definition) or the LambdaExpr.
const char RootID[] = "hpp-device-root";
/// The ID the code matchers bind a root's device code to: a declaration of
/// the function, or the lambda's compound statement.
const char CodeID[] = "hpp-device-code";

/// The matchers of one row of the table.
struct RowMatchers {
  DeviceRootKind Kind;
  /// The root, bound to RootID.
  ast_matchers::internal::DynTypedMatcher Root;
  /// Its device code, bound to CodeID.
  ast_matchers::internal::DynTypedMatcher Code;
};

/// The matchers of a row whose Extent is \p Extent and whose matcher is
/// called through \p Make (DeviceRootKinds.def says with what).
template <DeviceRootExtent Extent, typename MakeT>
RowMatchers rowMatchers(DeviceRootKind Kind, MakeT Make,
                        const DeviceGraphSource &Graph) {
  if constexpr (Extent == DeviceRootExtent::Declaration) {
    DeclarationMatcher Function = Make(Graph);
    return {Kind, functionDecl(isDefinition(), Function).bind(RootID),
            functionDecl(Function).bind(CodeID)};
  } else {
    using LambdaMatcher = ast_matchers::internal::Matcher<LambdaExpr>;
    return {Kind, Make(LambdaMatcher(lambdaExpr().bind(RootID))),
            Make(lambdaBodyStmt(CodeID))};
  }
}

/// The matchers of every row, in the table's order.
std::vector<RowMatchers> tableMatchers(const DeviceGraphSource &Graph) {
  return {
#define HPP_DEVICE_ROOT(Kind, Matcher, Extent)                                 \
  rowMatchers<DeviceRootExtent::Extent>(                                       \
      DeviceRootKind::Kind, [](const auto &Arg) { return Matcher(Arg); },      \
      Graph),
#include "Dialect/DeviceRootKinds.def"
  };
}

DeviceGraphSource graphOf(RuleContext &Ctx) {
  return [&Ctx]() -> const DeviceCallGraph & { return Ctx.deviceGraph(); };
}

/// A root as its row's matcher found it.
struct FoundRoot {
  DeviceRootKind Kind;
  const void *Key;
  const FunctionDecl *Function;
  const LambdaExpr *Lambda;
};

/// Collects the matches of one row's matchers, into lists shared by the
/// rows (in the order of the matches).
class RowCollector : public MatchFinder::MatchCallback {
public:
  RowCollector(DeviceRootKind Kind, std::vector<FoundRoot> &Roots,
               std::vector<SourceRange> &Code)
      : Kind(Kind), Roots(Roots), Code(Code) {}

  void run(const MatchFinder::MatchResult &R) override {
    auto It = R.Nodes.getMap().find(RootID);
    if (It != R.Nodes.getMap().end())
      Roots.push_back({Kind, It->second.getMemoizationData(),
                       It->second.get<FunctionDecl>(),
                       It->second.get<LambdaExpr>()});
    if (const auto *D = R.Nodes.getNodeAs<Decl>(CodeID))
      Code.push_back(D->getSourceRange());
    else if (const auto *S = R.Nodes.getNodeAs<Stmt>(CodeID))
      Code.push_back(S->getSourceRange());
  }

private:
  DeviceRootKind Kind;
  std::vector<FoundRoot> &Roots;
  std::vector<SourceRange> &Code;
};

} // namespace

DeviceRootExtent extentOf(DeviceRootKind Kind) {
  switch (Kind) {
#define HPP_DEVICE_ROOT(K, Matcher, Extent)                                    \
  case DeviceRootKind::K:                                                      \
    return DeviceRootExtent::Extent;
#include "Dialect/DeviceRootKinds.def"
  }
  llvm_unreachable("a kind of root that is no row of DeviceRootKinds.def");
}

llvm::StringRef kindName(DeviceRootKind Kind) {
  switch (Kind) {
#define HPP_DEVICE_ROOT(K, Matcher, Extent)                                    \
  case DeviceRootKind::K:                                                      \
    return #K;
#include "Dialect/DeviceRootKinds.def"
  }
  llvm_unreachable("a kind of root that is no row of DeviceRootKinds.def");
}

DeviceCodeMap::DeviceCodeMap(ASTContext &AST, const DeviceCallGraph &Graph)
    : SM(AST.getSourceManager()) {
  std::vector<FoundRoot> Found;
  std::vector<SourceRange> Ranges;
  std::vector<std::unique_ptr<RowCollector>> Collectors;
  MatchFinder Finder;
  DeviceGraphSource Source = [&Graph]() -> const DeviceCallGraph & {
    return Graph;
  };
  for (RowMatchers &Row : tableMatchers(Source)) {
    Collectors.push_back(
        std::make_unique<RowCollector>(Row.Kind, Found, Ranges));
    Finder.addDynamicMatcher(Row.Root, Collectors.back().get());
    Finder.addDynamicMatcher(Row.Code, Collectors.back().get());
  }
  // The traversal scope is the driver's: the main file's declarations.
  Finder.matchAST(AST);

  // An enclosing root is matched before the roots inside it, which are not
  // outermost (as a rule's callbacks see them).
  std::vector<SourceRange> Outer;
  for (const FoundRoot &F : Found) {
    const FunctionDecl *FD =
        F.Lambda ? F.Lambda->getCallOperator() : F.Function;
    const Stmt *Body = F.Lambda ? F.Lambda->getBody() : F.Function->getBody();
    if (!Body || !RootIndex.try_emplace(F.Key, Roots.size()).second)
      continue;
    SourceRange Range =
        F.Lambda ? F.Lambda->getSourceRange() : F.Function->getSourceRange();
    SourceLocation Begin = SM.getExpansionLoc(Range.getBegin());
    bool Outermost = llvm::none_of(Outer, [&](SourceRange S) {
      return SM.isPointWithin(Begin, S.getBegin(), S.getEnd());
    });
    if (Outermost)
      Outer.push_back({Begin, SM.getExpansionLoc(Range.getEnd())});
    Roots.push_back({F.Kind, FD, F.Lambda, Body, Outermost});
  }
  for (SourceRange R : Ranges)
    Code.push_back(
        {SM.getExpansionLoc(R.getBegin()), SM.getExpansionLoc(R.getEnd())});
}

const DeviceRoot *
DeviceCodeMap::root(const MatchFinder::MatchResult &Result) const {
  auto Bound = Result.Nodes.getMap().find(RootID);
  if (Bound == Result.Nodes.getMap().end())
    return nullptr;
  auto It = RootIndex.find(Bound->second.getMemoizationData());
  return It == RootIndex.end() ? nullptr : &Roots[It->second];
}

const DeviceRoot *DeviceCodeMap::rootOf(const FunctionDecl *FD) const {
  for (const DeviceRoot &R : Roots)
    if (R.Function == FD)
      return &R;
  return nullptr;
}

bool DeviceCodeMap::contains(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return false;
  Loc = SM.getExpansionLoc(Loc);
  FileID File = SM.getFileID(Loc);
  return llvm::any_of(Code, [&](SourceRange R) {
    return SM.getFileID(R.getBegin()) == File &&
           SM.isPointWithin(Loc, R.getBegin(), R.getEnd());
  });
}

void addDeviceRootMatchers(MatchFinder &Finder, MatchFinder::MatchCallback *CB,
                           RuleContext &Ctx) {
  addDeviceRootMatchers(Finder, CB, graphOf(Ctx));
}

void addDeviceRootMatchers(MatchFinder &Finder, MatchFinder::MatchCallback *CB,
                           const DeviceGraphSource &Graph) {
  for (const RowMatchers &Row : tableMatchers(Graph))
    Finder.addDynamicMatcher(Row.Root, CB);
}

transformer::RewriteRule inDeviceCode(TransformerRule &Rule, RuleContext &Ctx,
                                      transformer::RewriteRule Inner) {
  std::vector<transformer::RewriteRule> Cases;
  for (const RowMatchers &Row : tableMatchers(graphOf(Ctx)))
    Cases.push_back(Rule.descend(Row.Code, CodeID, Inner));
  return transformer::applyFirst(Cases);
}

} // namespace rewrite
} // namespace hpp
