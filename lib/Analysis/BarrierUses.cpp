//===- BarrierUses.cpp - Is a captured Barrier only waited on? ------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/BarrierUses.h"
#include "Analysis/Captures.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// Collects the references to one variable, and those that are the object
/// of a `wait()` call on a dialect Barrier.
class Uses : public DynamicASTVisitor {
public:
  explicit Uses(const VarDecl *Var) : Var(Var) {}

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) override {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const Expr *Object = MC->getImplicitObjectArgument();
    if (!M || !M->getIdentifier() || M->getName() != "wait" || !Object ||
        !isDialectBarrier(Object->getType()))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()))
      if (DRE->getDecl() == Var)
        Waits.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    if (DRE->getDecl() == Var)
      All.insert(DRE);
    return true;
  }

  bool onlyWaits() const {
    for (const DeclRefExpr *DRE : All)
      if (!Waits.count(DRE))
        return false;
    return true;
  }

private:
  const VarDecl *Var;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> All, Waits;
};
} // namespace

bool onlyWaitedOn(const VarDecl *Barrier, const Stmt *Body) {
  Uses U(Barrier);
  U.TraverseStmt(const_cast<Stmt *>(Body));
  return U.onlyWaits();
}

} // namespace rewrite
} // namespace hpp
