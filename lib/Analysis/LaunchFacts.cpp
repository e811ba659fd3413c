//===- LaunchFacts.cpp - 32-lane facts of a kernel's launches -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/LaunchFacts.h"
#include "Framework/DynamicASTVisitor.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// The first 32-lane fact of \p E and of the initialisers of the local
/// variables of \p Fn it reads, transitively.
class ValueScan {
public:
  ValueScan(const FunctionDecl *Fn, ASTContext &Ctx) : Fn(Fn), Ctx(Ctx) {}

  void scan(const Stmt *S) {
    if (!S || Found.Loc.isValid())
      return;
    if (const auto *IL = dyn_cast<IntegerLiteral>(S)) {
      if (IL->getValue() == 32)
        note(IL->getLocation(), "the literal '32'");
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isShiftOp() || BO->isShiftAssignOp())
        if (const auto *IL =
                dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts());
            IL && IL->getValue() == 5)
          note(BO->getOperatorLoc(), "a shift by 5 (a 32-lane warp count)");
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (VD->getType()->isIntegerType() &&
            !VD->getType()->isDependentType() &&
            VD->isUsableInConstantExpressions(Ctx))
          if (const APValue *V = VD->evaluateValue();
              V && V->isInt() && V->getInt() == 32) {
            note(DRE->getLocation(),
                 "the constant '" + VD->getNameAsString() + "' (32)");
            return;
          }
        if (VD->isLocalVarDecl() && VD->getDeclContext() == Fn &&
            VD->getInit() && Seen.insert(VD).second)
          scan(VD->getInit());
      }
    for (const Stmt *Child : S->children())
      scan(Child);
  }

  WidthFact Found;

private:
  void note(SourceLocation Loc, std::string What) {
    if (Found.Loc.isInvalid())
      Found = {Loc, std::move(What)};
  }

  const FunctionDecl *Fn;
  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
};

/// Collects the launches with the function each is written in.
class LaunchFinder : public DynamicASTVisitor {
public:
  explicit LaunchFinder(ASTContext &Ctx) : Ctx(Ctx) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool TraverseDecl(Decl *D) override {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return DynamicASTVisitor::TraverseDecl(D);
    const FunctionDecl *Outer = Current;
    Current = FD;
    bool Ok = DynamicASTVisitor::TraverseDecl(D);
    Current = Outer;
    return Ok;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) override {
    const FunctionDecl *Kernel = Launch->getDirectCallee();
    if (!Kernel || !Current)
      return true;
    ValueScan Scan(Current, Ctx);
    for (const Expr *A : Launch->getConfig()->arguments())
      Scan.scan(A);
    for (const Expr *A : Launch->arguments())
      Scan.scan(A);
    Found.push_back({Launch, Kernel, Scan.Found});
    return true;
  }

  std::vector<LaunchFact> Found;

private:
  ASTContext &Ctx;
  const FunctionDecl *Current = nullptr;
};

} // namespace

std::vector<LaunchFact> launchFacts(ASTContext &Ctx) {
  if (!Ctx.getLangOpts().CUDA)
    return {};
  LaunchFinder Finder(Ctx);
  Finder.TraverseAST(Ctx);
  return std::move(Finder.Found);
}

} // namespace rewrite
} // namespace hpp
