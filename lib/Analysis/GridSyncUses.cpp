//===- GridSyncUses.cpp - Does a kernel reach __gpu_sync? -----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/GridSyncUses.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

bool isGridSync(const FunctionDecl *FD) {
  // The dialect declares it at global scope, as HIP/CUDA builtins are (a
  // reserved name: programs cannot declare their own).
  return FD && FD->getIdentifier() && FD->getName() == "__gpu_sync" &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

namespace {
/// Walks a body and the bodies of its callees until it finds __gpu_sync.
class GridSyncFinder : public DynamicASTVisitor {
public:
  explicit GridSyncFinder(GridSyncIndex *Index) : Index(Index) {}

  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    if (isGridSync(FD)) {
      Found = true;
      return false; // Stop the walk.
    }
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def->getBody() || isDialectAPI(Def) ||
        !Seen.insert(Def).second)
      return true;
    if (std::optional<bool> Known = Index ? Index->known(Def) : std::nullopt)
      Found = *Known;
    else
      TraverseStmt(Def->getBody());
    return !Found;
  }

  bool Found = false;

private:
  GridSyncIndex *Index;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
};
} // namespace

bool reachesGridSync(const Stmt *Body, GridSyncIndex *Index) {
  GridSyncFinder F(Index);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

std::optional<bool> GridSyncIndex::known(const FunctionDecl *Def) const {
  auto It = Answers.find(Def);
  if (It == Answers.end())
    return std::nullopt;
  return It->second;
}

bool GridSyncIndex::reaches(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def->getBody() || isDialectAPI(Def))
    return false;
  if (std::optional<bool> Known = known(Def))
    return *Known;
  // Only whole answers are kept: a walk that started elsewhere skips the
  // functions already on its path.
  const bool Reaches = reachesGridSync(Def->getBody(), this);
  Answers[Def] = Reaches;
  return Reaches;
}

} // namespace rewrite
} // namespace hpp
