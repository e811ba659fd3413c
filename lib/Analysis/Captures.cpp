//===- Captures.cpp - How a parallelFor capture reaches the kernel --------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Captures.h"
#include "Dialect/Channels.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

static bool isDialectTemplate(QualType T, llvm::StringRef Name) {
  T = T.getNonReferenceType();
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    if (const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl())
      return TD->getName() == Name && isDialectAPI(TD);
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->getName() == Name && isDialectAPI(RD);
}

bool isDialectPointer(QualType T) { return isDialectTemplate(T, "Pointer"); }
bool isDialectAtomic(QualType T) { return isDialectTemplate(T, "Atomic"); }
bool isDialectBarrier(QualType T) { return isDialectTemplate(T, "Barrier"); }
bool isDialectClass(QualType T, llvm::StringRef Name) {
  return isDialectTemplate(T, Name);
}

static CaptureKind classify(const Capture &C) {
  if (C.IsThis)
    return CaptureKind::This;
  const auto *VD = dyn_cast_or_null<VarDecl>(C.Var);
  if (!VD)
    return CaptureKind::Unsupported; // VLA or structured binding.
  QualType T = VD->getType();
  if (T.getNonReferenceType()->isArrayType())
    return CaptureKind::Unsupported;
  if (!C.ByRef)
    return CaptureKind::Value;
  if (isDialectPointer(T))
    return CaptureKind::PointerHandle;
  if (isDialectAtomic(T) && T->isReferenceType())
    return CaptureKind::AtomicRef;
  if (isDialectBarrier(T))
    return CaptureKind::BarrierRef;
  if (isChannelType(T))
    return CaptureKind::ChannelRef;
  return CaptureKind::HostReference;
}

namespace {
/// Finds the enclosing locals (and `this`) a dependent lambda body uses.
class ImplicitUses : public DynamicASTVisitor {
public:
  ImplicitUses(const LambdaExpr *LE, bool ByRef,
               llvm::SmallPtrSet<const ValueDecl *, 8> &Known,
               std::vector<Capture> &Out)
      : LE(LE), ByRef(ByRef), Known(Known), Out(Out) {}

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *VD = dyn_cast<VarDecl>(E->getDecl());
    // A constant of arithmetic type is read for its value (`int buf[K]`,
    // `K * 2`): no capture, as outside a template, where the uses the
    // template leaves dependent are not yet marked as such
    // (uncapturedConstants()).
    if (!VD || !VD->hasLocalStorage() || E->isNonOdrUse() == NOUR_Constant ||
        (VD->getType()->isArithmeticType() &&
         VD->isUsableInConstantExpressions(VD->getASTContext())) ||
        !Known.insert(VD).second)
      return true;
    // Declared inside the lambda: not a capture.
    const DeclContext *DC = VD->getDeclContext();
    for (const DeclContext *P = DC; P; P = P->getParent())
      if (P == LE->getCallOperator())
        return true;
    Capture C;
    C.Var = VD;
    C.ByRef = ByRef;
    C.Implicit = true;
    C.Loc = E->getLocation();
    Out.push_back(C);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *E) override {
    if (E->isImplicit() || SawThis)
      return true;
    SawThis = true;
    Capture C;
    C.IsThis = true;
    C.Implicit = true;
    C.Loc = E->getLocation();
    Out.push_back(C);
    return true;
  }

private:
  const LambdaExpr *LE;
  bool ByRef;
  llvm::SmallPtrSet<const ValueDecl *, 8> &Known;
  std::vector<Capture> &Out;
  bool SawThis = false;
};
} // namespace

std::vector<Capture> collectCaptures(const LambdaExpr *LE) {
  std::vector<Capture> Out;
  llvm::SmallPtrSet<const ValueDecl *, 8> Known;
  bool Dependent = LE->getLambdaClass()->isDependentContext();
  for (const LambdaCapture &LC : LE->captures()) {
    if (Dependent && LC.isImplicit())
      continue; // Recomputed below, with the dependent ones included.
    Capture C;
    C.IsThis = LC.capturesThis();
    C.Var = LC.capturesVariable() ? LC.getCapturedVar() : nullptr;
    C.ByRef = LC.getCaptureKind() == LCK_ByRef;
    C.Implicit = LC.isImplicit();
    C.Loc = LC.getLocation();
    if (C.Var)
      Known.insert(C.Var);
    Out.push_back(C);
  }
  if (Dependent && LE->getCaptureDefault() != LCD_None) {
    ImplicitUses Walker(LE, LE->getCaptureDefault() == LCD_ByRef, Known, Out);
    Walker.TraverseStmt(LE->getBody());
  }
  for (Capture &C : Out)
    C.Kind = classify(C);
  return Out;
}

namespace {
/// Finds the enclosing constants a body names without capturing them.
class UncapturedConstants : public DynamicASTVisitor {
public:
  UncapturedConstants(const LambdaExpr *LE, std::vector<const VarDecl *> &Out)
      : LE(LE), Out(Out) {
    for (const LambdaCapture &LC : LE->captures())
      if (LC.capturesVariable())
        Seen.insert(LC.getCapturedVar());
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *VD = dyn_cast<VarDecl>(E->getDecl());
    if (!VD || !VD->isLocalVarDecl() || !Seen.insert(VD).second)
      return true;
    for (const DeclContext *P = VD->getDeclContext(); P; P = P->getParent())
      if (P == LE->getCallOperator())
        return true; // Declared inside the lambda.
    Out.push_back(VD);
    return true;
  }

private:
  const LambdaExpr *LE;
  llvm::SmallPtrSet<const ValueDecl *, 8> Seen;
  std::vector<const VarDecl *> &Out;
};
} // namespace

std::vector<const VarDecl *> uncapturedConstants(const LambdaExpr *LE) {
  std::vector<const VarDecl *> Out;
  UncapturedConstants Walker(LE, Out);
  Walker.TraverseStmt(LE->getBody());
  // In a template, collectCaptures reports every enclosing local the body
  // uses other than as a constant's value; the rest are these.
  if (LE->getLambdaClass()->isDependentContext()) {
    llvm::SmallPtrSet<const ValueDecl *, 8> Captured;
    for (const Capture &C : collectCaptures(LE))
      if (C.Var)
        Captured.insert(C.Var);
    llvm::erase_if(Out, [&](const VarDecl *VD) { return Captured.count(VD); });
  }
  return Out;
}

} // namespace rewrite
} // namespace hpp
