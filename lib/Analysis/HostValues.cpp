//===- HostValues.cpp - The values of host variables ----------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/HostValues.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace hpp {
namespace rewrite {

LocalWrites::LocalWrites(const FunctionDecl *Fn) : Fn(Fn) {
  if (Fn->getBody())
    walk(Fn->getBody());
}

bool LocalWrites::known(const VarDecl *VD) const {
  return ((VD->isLocalVarDecl() && !VD->isStaticLocal()) ||
          isa<ParmVarDecl>(VD)) &&
         VD->getDeclContext() == Fn && !VD->getType().isVolatileQualified() &&
         !Escaped.count(VD);
}

llvm::SmallVector<const Expr *, 2>
LocalWrites::values(const VarDecl *VD) const {
  llvm::SmallVector<const Expr *, 2> Out;
  // A parameter's "initialiser" is its default argument, which only the
  // calls that leave the argument out pass (HostCall::argument).
  if (VD->getInit() && !isa<ParmVarDecl>(VD))
    Out.push_back(VD->getInit());
  if (auto It = Assigned.find(VD); It != Assigned.end())
    Out.append(It->second.begin(), It->second.end());
  return Out;
}

/// The parent of Stack.back() that is not a parenthesis, \p Up levels up.
const Stmt *LocalWrites::parent(unsigned Up) const {
  for (size_t I = Stack.size() - 1; I-- > 0;)
    if (!isa<ParenExpr>(Stack[I]) && Up-- == 0)
      return Stack[I];
  return nullptr;
}

/// Records what \p DRE, a use of \p VD, does with it: reads it, assigns it,
/// or writes it some other way.
void LocalWrites::classify(const DeclRefExpr *DRE, const VarDecl *VD) {
  const Stmt *P = parent(0);
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
  if (Cast && (Cast->getCastKind() == CK_LValueToRValue ||
               Cast->getCastKind() == CK_NoOp))
    return;
  if (isa_and_nonnull<CXXConstructExpr>(P))
    return; // a copy
  // Captured by reference: the lambda's body, where it is written if it is,
  // is part of the walk.
  if (isa_and_nonnull<LambdaExpr>(P))
    return;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Assign &&
      BO->getLHS()->IgnoreParens() == DRE) {
    Assigned[VD].push_back(BO->getRHS());
    return;
  }
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
      Op->getArg(0)->IgnoreParens() == DRE) {
    Assigned[VD].push_back(Op->getArg(1));
    return;
  }
  if (isa_and_nonnull<MemberExpr>(P)) {
    const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(parent(1));
    if (Read && Read->getCastKind() == CK_LValueToRValue)
      return; // `block.x` read
  }
  Escaped.insert(VD);
}

void LocalWrites::walk(const Stmt *S) {
  if (!S)
    return;
  Stack.push_back(S);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && (VD->isLocalVarDecl() || isa<ParmVarDecl>(VD)))
      classify(DRE, VD);
  for (const Stmt *Child : S->children())
    walk(Child);
  Stack.pop_back();
}

HostValues::~HostValues() = default;

const LocalWrites *HostValues::writes(const VarDecl *VD) {
  const auto *Fn = dyn_cast<FunctionDecl>(VD->getDeclContext());
  if (!Fn)
    return nullptr;
  std::unique_ptr<LocalWrites> &W = Writes[Fn];
  if (!W)
    W = std::make_unique<LocalWrites>(Fn);
  return W.get();
}

const HostCalls &HostValues::calls() {
  if (!Calls)
    Calls = std::make_unique<HostCalls>(Ctx);
  return *Calls;
}

} // namespace rewrite
} // namespace hpp
