//===- BatchHandles.cpp - Elements of and pointers into a batch -----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/BatchHandles.h"
#include "Dialect/Channels.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// Whether \p T is a pointer to const, or an iterator whose `operator*`
/// gives a reference to const: nothing can be written through it.
bool isReadOnlyHandle(QualType T) {
  T = T.getNonReferenceType();
  if (T.isNull() || T->isDependentType())
    return false;
  if (T->isPointerType())
    return T->getPointeeType().isConstQualified();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  ASTContext &Ctx = RD->getASTContext();
  bool Found = false;
  for (const NamedDecl *D :
       RD->lookup(Ctx.DeclarationNames.getCXXOperatorName(OO_Star))) {
    const auto *MD = dyn_cast<CXXMethodDecl>(D->getUnderlyingDecl());
    if (!MD || MD->getNumParams() != 0)
      continue;
    QualType R = MD->getReturnType();
    if (!R->isReferenceType() || !R.getNonReferenceType().isConstQualified())
      return false;
    Found = true;
  }
  return Found;
}

/// Whether \p T is an arithmetic result (a count, a difference, a truth
/// value) rather than a pointer or iterator.
bool isScalarResult(QualType T) {
  return !T.isNull() && !T->isDependentType() &&
         (T->isIntegralOrEnumerationType() || T->isRealFloatingType());
}

/// Whether \p Cur is the target of \p P, an assignment or increment
/// (reported as modifications by batchUseProblems).
bool isModifiedOperand(const Stmt *P, const Stmt *Cur) {
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isAssignmentOp() && BO->getLHS() == Cur;
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return UO->isIncrementDecrementOp();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P))
    return Op->getNumArgs() && Op->getArg(0) == Cur &&
           (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
            Op->getOperator() == OO_MinusMinus);
  return false;
}

/// Whether \p Cur, among the arguments \p Args of \p Callee (the object
/// first for \p Call, an operator call of a member function), is bound to
/// a non-const reference or is the object of a non-const member function.
/// Unknown callees (a call through a pointer) count as binding.
bool bindsNonConstReference(const CallExpr *Call, const FunctionDecl *Callee,
                            CallExpr::const_arg_range Args, const Stmt *Cur) {
  if (!Callee)
    return true;
  unsigned Shift = 0;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      MD && Call && isa<CXXOperatorCallExpr>(Call) &&
      MD->isImplicitObjectMemberFunction()) {
    if (Call->getArg(0) == Cur)
      return !MD->isConst();
    Shift = 1;
  }
  unsigned I = 0;
  for (const Expr *A : Args) {
    if (A == Cur) {
      if (I < Shift || I - Shift >= Callee->getNumParams())
        return true;
      QualType T = Callee->getParamDecl(I - Shift)->getType();
      return T->isReferenceType() &&
             !T.getNonReferenceType().isConstQualified();
    }
    ++I;
  }
  return false; // The callee itself.
}

} // namespace

bool BatchHandles::isHandle(const Expr *E) const {
  if (!E)
    return false;
  // Parentheses, implicit conversions, temporaries and copies of an
  // iterator keep it what it is.
  for (const Expr *Prev = nullptr; E != Prev;) {
    Prev = E;
    E = E->IgnoreParenImpCasts();
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BT->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getNumArgs() == 1 &&
             CE->getConstructor()->isCopyOrMoveConstructor())
      E = CE->getArg(0);
  }
  if (std::optional<MemberCall> MC = memberCall(E))
    return namesVariable(MC->Object, Batch) &&
           llvm::is_contained({"data", "begin", "end"}, MC->Member);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_AddrOf   ? isPlace(UO->getSubExpr())
           : UO->isIncrementDecrementOp() ? isHandle(UO->getSubExpr())
                                          : false;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->getType()->isPointerType() &&
           (BO->isAdditiveOp() || BO->getOpcode() == BO_Comma) &&
           (isHandle(BO->getRHS()) ||
            (BO->isAdditiveOp() && isHandle(BO->getLHS())));
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isHandle(CO->getTrueExpr()) || isHandle(CO->getFalseExpr());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    switch (Op->getOperator()) {
    case OO_Plus:
    case OO_Minus:
    case OO_PlusPlus:
    case OO_MinusMinus:
    case OO_Arrow:
      return !isScalarResult(Op->getType()) &&
             llvm::any_of(Op->arguments(),
                          [&](const Expr *A) { return isHandle(A); });
    default:
      return false;
    }
  }
  return false;
}

bool BatchHandles::isPlace(const Expr *E) const {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  // Either side: with an index of dependent type, getBase() cannot tell.
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E))
    return llvm::any_of(
        std::initializer_list<const Expr *>{AS->getLHS(), AS->getRHS()},
        [&](const Expr *Side) {
          return namesVariable(Side, Batch) || isHandle(Side);
        });
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript)
      return namesVariable(Op->getArg(0), Batch) || isHandle(Op->getArg(0));
    if (Op->getOperator() == OO_Star && Op->getNumArgs() == 1)
      return isHandle(Op->getArg(0));
    return false;
  }
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref && isHandle(UO->getSubExpr());
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) &&
           (ME->isArrow() ? isHandle(ME->getBase()) : isPlace(ME->getBase()));
  return false;
}

bool BatchHandles::placeContextReads(const Stmt *Cur, const Stmt *P,
                                     bool &Handle, bool &Climb) const {
  Climb = false;
  if (isModifiedOperand(P, Cur))
    return true; // Reported by checkModification.
  if (const auto *PE = dyn_cast<Expr>(P); PE && PE->isTypeDependent())
    return true; // Depends on the instantiation (file comment).
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
    switch (ICE->getCastKind()) {
    case CK_LValueToRValue:
      return true;
    case CK_NoOp:
      // Bound to a reference to const, or the object of a const member.
      Climb = !ICE->getType().isConstQualified();
      return true;
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
      Climb = true;
      return true;
    case CK_ArrayToPointerDecay:
      Handle = Climb = true;
      return true;
    default:
      return true;
    }
  }
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    if (isa<FieldDecl>(ME->getMemberDecl())) {
      Climb = true;
      return true;
    }
    const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
    return !MD || MD->isStatic() || MD->isConst();
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_AddrOf)
      Handle = Climb = true;
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    Climb = BO->getOpcode() == BO_Comma && BO->getRHS() == Cur;
    return true;
  }
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(P)) {
    // Cast to a non-const reference: still the element.
    QualType T = CE->getTypeAsWritten();
    Climb = T->isLValueReferenceType() &&
            !T.getNonReferenceType().isConstQualified();
    return true;
  }
  if (const auto *FR = dyn_cast<CXXForRangeStmt>(P)) {
    QualType T = FR->getLoopVariable()->getType();
    return !(T->isLValueReferenceType() &&
             !T.getNonReferenceType().isConstQualified());
  }
  if (const auto *Call = dyn_cast<CallExpr>(P))
    return !bindsNonConstReference(Call, Call->getDirectCallee(),
                                   Call->arguments(), Cur);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(P))
    return !bindsNonConstReference(nullptr, CE->getConstructor(),
                                   CE->arguments(), Cur);
  // Returned as it is: a reference to it.
  if (isa<ReturnStmt>(P))
    return false;
  // A declaration's initialiser (a non-const reference to an element is
  // reported by visit), a statement of its own, an initialiser list.
  return isa<DeclStmt>(P) || !isa<Expr>(P) || isa<InitListExpr>(P);
}

bool BatchHandles::handleContextReads(const Stmt *Cur, const Stmt *P,
                                      bool &Handle, bool &Climb) const {
  Climb = false;
  if (const auto *PE = dyn_cast<Expr>(P); PE && PE->isTypeDependent())
    return false;
  if (isa<ParenExpr>(P) || isa<MaterializeTemporaryExpr>(P) ||
      isa<CXXBindTemporaryExpr>(P) || isa<ExprWithCleanups>(P) ||
      isa<ConditionalOperator>(P)) {
    if (const auto *CO = dyn_cast<ConditionalOperator>(P))
      if (CO->getCond() == Cur)
        return true;
    Climb = true;
    return true;
  }
  if (const auto *CE = dyn_cast<CastExpr>(P)) {
    QualType T = CE->getType();
    if (isReadOnlyHandle(T) || isScalarResult(T) || T->isVoidType())
      return true;
    Climb = true;
    return true;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
    if (isReadOnlyHandle(CE->getType()))
      return true;
    Climb = CE->getNumArgs() == 1 &&
            CE->getConstructor()->isCopyOrMoveConstructor();
    return Climb;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_Deref) {
      Handle = false;
      Climb = true;
      return true;
    }
    Climb = UO->isIncrementDecrementOp();
    return Climb || UO->getOpcode() == UO_LNot;
  }
  if (isa<ArraySubscriptExpr>(P)) {
    Handle = false;
    Climb = true;
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    // `p->m`: the element's member, or a member function called on it.
    if (!ME->isArrow())
      return false;
    Handle = false;
    return placeContextReads(Cur, P, Handle, Climb);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->isAssignmentOp())
      return false; // Stored: it may be written through later.
    if (BO->getOpcode() == BO_Comma) {
      Climb = BO->getRHS() == Cur;
      return true;
    }
    Climb = !isScalarResult(BO->getType());
    return true; // Arithmetic (a pointer), a comparison, a difference.
  }
  if (isa<CXXRewrittenBinaryOperator>(P))
    return true; // A comparison.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
    switch (Op->getOperator()) {
    case OO_Star:
    case OO_Subscript:
      if (Op->getArg(0) != Cur)
        return false;
      Handle = false;
      Climb = true;
      return true;
    case OO_Arrow:
    case OO_Plus:
    case OO_Minus:
    case OO_PlusPlus:
    case OO_MinusMinus:
      Climb = !isScalarResult(Op->getType());
      return true;
    case OO_EqualEqual:
    case OO_ExclaimEqual:
    case OO_Less:
    case OO_LessEqual:
    case OO_Greater:
    case OO_GreaterEqual:
    case OO_Spaceship:
      return true;
    default:
      return false;
    }
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit() == Cur)
        return isReadOnlyHandle(VD->getType());
    return false;
  }
  // An argument of a call, a return value, an initialiser: passed on.
  return !isa<Expr>(P) && !isa<ReturnStmt>(P) && !isa<CXXForRangeStmt>(P);
}

bool BatchHandles::onlyReads(llvm::ArrayRef<const Stmt *> Path,
                             bool &Handle) const {
  for (size_t I = Path.size() - 1; I > 0; --I) {
    const Stmt *Cur = Path[I], *P = Path[I - 1];
    if (!Handle && (isa<ParenExpr>(P) || isa<MaterializeTemporaryExpr>(P) ||
                    isa<ExprWithCleanups>(P)))
      continue;
    bool Climb = false;
    bool Reads = Handle ? handleContextReads(Cur, P, Handle, Climb)
                        : placeContextReads(Cur, P, Handle, Climb);
    if (!Reads || !Climb)
      return Reads;
  }
  return true;
}

} // namespace rewrite
} // namespace hpp
