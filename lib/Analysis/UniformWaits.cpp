//===- UniformWaits.cpp - Does every work-item reach the same waits? ------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/UniformWaits.h"
#include "Analysis/Captures.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// The statements of one body that the test looks at (nested lambdas and
/// local classes included: the parent chain tells them apart).
class Collect : public DynamicASTVisitor {
public:
  std::vector<const DeclRefExpr *> Refs;
  std::vector<const VarDecl *> Locals;
  std::vector<const Stmt *> Jumps;
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    Refs.push_back(E);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) override {
    Locals.push_back(VD);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *S) override { return jump(S); }
  bool VisitBreakStmt(BreakStmt *S) override { return jump(S); }
  bool VisitContinueStmt(ContinueStmt *S) override { return jump(S); }
  bool VisitGotoStmt(GotoStmt *S) override { return jump(S); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) override { return jump(S); }

private:
  bool jump(const Stmt *S) {
    Jumps.push_back(S);
    return true;
  }
};

class Analysis {
public:
  Analysis(const VarDecl *Barrier, const LambdaExpr *LE)
      : Barrier(Barrier), Op(LE->getCallOperator()), Body(LE->getBody()),
        Ctx(Op->getASTContext()), PM(const_cast<Stmt *>(Body)) {
    C.TraverseStmt(const_cast<Stmt *>(Body));
  }

  bool run() {
    findUniformLocals();
    // The waits: not in a nested lambda or range-for, under uniform
    // conditions only.
    for (const DeclRefExpr *E : C.Refs)
      if (E->getDecl() == Barrier) {
        Waits.push_back(E);
        if (!allUniform(E, nullptr))
          return false;
      }
    for (const Stmt *J : C.Jumps)
      if (!jumpIsUniform(J))
        return false;
    return true;
  }

private:
  /// The conditions that decide whether \p S runs (or how often), from \p S
  /// up to \p Stop (exclusive; null: the body); false when \p S is in a
  /// nested lambda or a range-for, which the test does not follow.
  bool conditions(const Stmt *S, const Stmt *Stop,
                  llvm::SmallVectorImpl<const Expr *> &Out) const {
    const Stmt *End = Stop ? Stop : Body;
    const Stmt *Child = S;
    for (const Stmt *P = PM.getParent(S); P != End;
         Child = P, P = PM.getParent(P)) {
      if (!P || isa<LambdaExpr, CXXForRangeStmt>(P))
        return false;
      if (const auto *If = dyn_cast<IfStmt>(P)) {
        if (Child == If->getThen() || Child == If->getElse())
          Out.push_back(If->getCond());
      } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
        if (Child == Sw->getBody())
          Out.push_back(Sw->getCond());
      } else if (const auto *W = dyn_cast<WhileStmt>(P)) {
        Out.push_back(W->getCond());
      } else if (const auto *D = dyn_cast<DoStmt>(P)) {
        Out.push_back(D->getCond());
      } else if (const auto *F = dyn_cast<ForStmt>(P)) {
        if (Child != F->getInit() && F->getCond())
          Out.push_back(F->getCond());
      } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
        if (Child != CO->getCond())
          Out.push_back(CO->getCond());
      } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
        if (BO->isLogicalOp() && Child == BO->getRHS())
          Out.push_back(BO->getLHS());
      }
    }
    return true;
  }

  /// \p S is under uniform conditions only, up to \p Stop.
  bool allUniform(const Stmt *S, const Stmt *Stop) const {
    llvm::SmallVector<const Expr *, 4> Conds;
    if (!conditions(S, Stop, Conds))
      return false;
    for (const Expr *E : Conds)
      if (!uniform(E))
        return false;
    return true;
  }

  bool declaredInBody(const VarDecl *VD) const {
    for (const DeclContext *DC = VD->getDeclContext(); DC; DC = DC->getParent())
      if (DC == Op)
        return true;
    return false;
  }

  /// The same value in every work-item (see the header).
  bool uniform(const Expr *E) const {
    if (!E)
      return true;
    E = E->IgnoreParens();
    if (!E->isValueDependent() && !E->isTypeDependent() &&
        E->isIntegerConstantExpr(Ctx))
      return true;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      return uniform(ICE->getSubExpr());
    if (const auto *EC = dyn_cast<ExplicitCastExpr>(E))
      return uniform(EC->getSubExpr());
    if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
            CharacterLiteral, CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr,
            SubstNonTypeTemplateParmExpr, SourceLocExpr>(E))
      return true;
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E)) // `__builtin_LINE()`
      return uniform(DA->getExpr());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(D))
        return true;
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || VD->getType()->isReferenceType())
        return false;
      if (!declaredInBody(VD)) // A capture: the same copy everywhere.
        return VD->hasLocalStorage() || VD->getType().isConstQualified();
      return VD->isInitCapture() || Uniform.count(VD);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
             uniform(BO->getLHS()) && uniform(BO->getRHS());
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      switch (UO->getOpcode()) {
      case UO_Plus:
      case UO_Minus:
      case UO_Not:
      case UO_LNot:
        return uniform(UO->getSubExpr());
      default:
        return false;
      }
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return uniform(CO->getCond()) && uniform(CO->getTrueExpr()) &&
             uniform(CO->getFalseExpr());
    // The size of a segment, a region, a barrier: `s.getRegionSize()`.
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      llvm::StringRef Name;
      if (const Expr *Base = memberCall(CE, Name))
        return (Name == "getRegionSize" || Name == "getSize" ||
                Name == "getCount") &&
               CE->getNumArgs() == 0 && uniformObject(Base);
    }
    return false;
  }

  /// The object of \p CE when it calls a member function (its name in
  /// \p Name), dependent or not; null otherwise.
  static const Expr *memberCall(const CallExpr *CE, llvm::StringRef &Name) {
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(Callee)) {
      if (const IdentifierInfo *II = ME->getMemberDecl()->getIdentifier())
        Name = II->getName();
      return ME->getBase();
    }
    if (const auto *DME = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
      if (DME->getMember().isIdentifier())
        Name = DME->getMember().getAsIdentifierInfo()->getName();
      return DME->isImplicitAccess() ? nullptr : DME->getBase();
    }
    return nullptr;
  }

  /// A dialect object that is the same in every work-item of a work-group:
  /// a capture, the body's BoundDistArray parameter, a segment `a(r)` of it
  /// (or `a.getRegion(r)`) for a uniform region, a local initialised so and
  /// only used as the object of calls.
  bool uniformObject(const Expr *E) const {
    if (!E)
      return false;
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      return CE->getNumArgs() == 1 && uniformObject(CE->getArg(0));
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return false;
      if (!declaredInBody(VD)) // A capture.
        return VD->hasLocalStorage() || VD->getType().isConstQualified();
      if (isa<ParmVarDecl>(VD))
        return isDialectClass(VD->getType(), "BoundDistArray");
      return Objects.count(VD);
    }
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call)
      return false;
    const Expr *Object = nullptr;
    unsigned First = 0;
    llvm::StringRef Name;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
      if (OC->getOperator() != OO_Call)
        return false;
      Object = OC->getArg(0);
      First = 1;
    } else if (const Expr *Base = memberCall(Call, Name)) {
      if (Name != "getRegion")
        return false;
      Object = Base;
    } else {
      Object = Call->getCallee(); // `a(r)` on a dependent `a`.
    }
    if (!uniformObject(Object))
      return false;
    for (unsigned I = First; I < Call->getNumArgs(); ++I)
      if (!uniformObject(Call->getArg(I)) && !uniform(Call->getArg(I)))
        return false;
    return true;
  }

  /// One write of a local: the value, and the statement that makes it.
  struct Write {
    const Expr *Value; ///< null: the variable's own update (++, --)
    const Stmt *At;
  };

  /// The body's scalar locals that are uniform: a greatest fixed point
  /// (every source of divergence, the index, a load, a call, is never
  /// uniform, so assuming the rest is cannot make one up).
  void findUniformLocals() {
    llvm::DenseMap<const VarDecl *, std::vector<Write>> Writes;
    for (const VarDecl *VD : C.Locals)
      if (!isa<ParmVarDecl>(VD) && declaredInBody(VD) && VD->getInit() &&
          VD->getType()->isScalarType() && !VD->isStaticLocal()) {
        Uniform.insert(VD);
        const Stmt *Decl = PM.getParent(VD->getInit());
        Writes[VD].push_back({VD->getInit(), Decl ? Decl : VD->getInit()});
      }
    // Local dialect objects (a Segment): initialised by a uniform object,
    // used only as the object of calls.
    for (const VarDecl *VD : C.Locals)
      if (!isa<ParmVarDecl>(VD) && declaredInBody(VD) && VD->getInit() &&
          !VD->getType()->isScalarType() && !VD->getType()->isReferenceType() &&
          !VD->isStaticLocal() &&
          (isDialectClass(VD->getType(), "Segment") ||
           isDialectClass(VD->getType(), "Region")))
        Objects.insert(VD);
    for (const DeclRefExpr *E : C.Refs) {
      const auto *VD = dyn_cast<VarDecl>(E->getDecl());
      if (!VD || !Objects.count(VD))
        continue;
      const Stmt *P =
          PM.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(E));
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P);
      const bool Object =
          isa_and_nonnull<MemberExpr, CXXDependentScopeMemberExpr>(P) ||
          (AS && AS->getBase()->IgnoreParenImpCasts() == E) ||
          (isa_and_nonnull<CXXOperatorCallExpr>(P) &&
           cast<CXXOperatorCallExpr>(P)->getArg(0)->IgnoreParenImpCasts() ==
               E &&
           cast<CXXOperatorCallExpr>(P)->getOperator() == OO_Subscript);
      if (!Object)
        Objects.erase(VD);
    }

    for (const DeclRefExpr *E : C.Refs) {
      const auto *VD = dyn_cast<VarDecl>(E->getDecl());
      if (!VD || !Uniform.count(VD))
        continue;
      const Stmt *Use = E;
      const Stmt *P = PM.getParentIgnoreParens(const_cast<DeclRefExpr *>(E));
      if (const auto *ICE = dyn_cast_or_null<ImplicitCastExpr>(P);
          ICE && ICE->getCastKind() == CK_LValueToRValue)
        continue; // A read.
      if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
          BO && BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Use) {
        Writes[VD].push_back({BO->getRHS(), BO});
        continue;
      }
      if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
          UO && UO->isIncrementDecrementOp()) {
        Writes[VD].push_back({nullptr, UO});
        continue;
      }
      Uniform.erase(VD); // Exposed: address taken, bound to a reference.
    }
    // Both sets at once: a local object's arguments may be locals.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const VarDecl *VD : C.Locals)
        if (Objects.count(VD) &&
            (!uniformObject(VD->getInit()) ||
             !allUniform(PM.getParent(VD->getInit()), nullptr))) {
          Objects.erase(VD);
          Changed = true;
        }
      for (auto &[VD, Ws] : Writes) {
        if (!Uniform.count(VD))
          continue;
        for (const Write &W : Ws) {
          const bool Ok = (!W.Value || uniform(W.Value)) &&
                          (!W.At || allUniform(W.At, nullptr));
          if (!Ok) {
            Uniform.erase(VD);
            Changed = true;
            break;
          }
        }
      }
    }
  }

  /// A `return`, `break`, `continue` or `goto` that cannot make work-items
  /// reach different waits.
  bool jumpIsUniform(const Stmt *J) const {
    if (inNestedFunction(J))
      return true; // A nested lambda's own.
    if (isa<ReturnStmt>(J)) {
      if (const auto *CS = dyn_cast<CompoundStmt>(Body);
          CS && !CS->body_empty() && CS->body_back() == J)
        return true; // The end of the body: every work-item is done.
      return allUniform(J, nullptr);
    }
    if (!isa<BreakStmt>(J) && !isa<ContinueStmt>(J))
      return allUniform(J, nullptr); // goto
    // The loop or switch it leaves.
    const Stmt *Target = PM.getParent(J);
    while (Target &&
           !isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Target) &&
           !(isa<BreakStmt>(J) && isa<SwitchStmt>(Target)))
      Target = PM.getParent(Target);
    if (!Target || isa<SwitchStmt>(Target))
      return true;
    bool Waits = false;
    for (const DeclRefExpr *W : this->Waits)
      for (const Stmt *P = W; P && !Waits; P = PM.getParent(P))
        Waits = P == Target;
    return !Waits || allUniform(J, Target);
  }

  /// Whether \p S is in a lambda or class the body defines.
  bool inNestedFunction(const Stmt *S) const {
    for (const Stmt *P = PM.getParent(S); P && P != Body; P = PM.getParent(P))
      if (isa<LambdaExpr>(P))
        return true;
    return false;
  }

  const VarDecl *Barrier;
  const CXXMethodDecl *Op;
  const Stmt *Body;
  ASTContext &Ctx;
  ParentMap PM;
  Collect C;
  llvm::SmallPtrSet<const VarDecl *, 16> Uniform;
  llvm::SmallPtrSet<const VarDecl *, 8> Objects;
  std::vector<const DeclRefExpr *> Waits;
};

} // namespace

bool waitsAreUniform(const VarDecl *Barrier, const LambdaExpr *Lambda) {
  return Analysis(Barrier, Lambda).run();
}

} // namespace rewrite
} // namespace hpp
