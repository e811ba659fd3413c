//===- LaneId.cpp - Values that differ between the lanes of a warp -------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/LaneId.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

#include <utility>
#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

bool isIdAccessor(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_ID_ACCESSOR(N) .Case(#N, true)
#include "Analysis/LaneId.def"
      .Default(false);
}

bool isIdVariableName(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_ID_VARIABLE(N) .Case(#N, true)
#include "Analysis/LaneId.def"
      .Default(false);
}

bool isIdFunctionName(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_ID_FUNCTION(N) .Case(#N, true)
#include "Analysis/LaneId.def"
      .Default(false);
}

bool isWidthVariableName(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_WIDTH_VARIABLE(N) .Case(#N, true)
#include "Analysis/LaneId.def"
      .Default(false);
}

bool isWidthFunctionName(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_WIDTH_FUNCTION(N) .Case(#N, true)
#include "Analysis/LaneId.def"
      .Default(false);
}

/// hpp::Index<...>, possibly dependent, behind references and qualifiers.
bool isIndexType(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD->getName() == "Index" && isDialectAPI(RD);
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    if (const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl())
      return TD->getName() == "Index" && isDialectAPI(TD);
  return false;
}

/// Every (variable, value) a body assigns: initialisers and assignments.
class AssignmentCollector : public DynamicASTVisitor {
public:
  std::vector<std::pair<const VarDecl *, const Expr *>> Found;
  std::vector<const VarDecl *> Initialised;

  bool VisitVarDecl(VarDecl *VD) override {
    if (!isa<ParmVarDecl>(VD) && VD->getInit()) {
      Found.emplace_back(VD, VD->getInit());
      Initialised.push_back(VD);
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) override {
    if (!BO->isAssignmentOp())
      return true;
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Found.emplace_back(VD, BO->getRHS());
    return true;
  }
};

bool isInteger(const Expr *E, uint64_t V) {
  const auto *IL = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
  return IL && IL->getValue() == V;
}

/// `31` or `width - 1`.
bool isLaneMask(const Expr *E) {
  if (isInteger(E, 31))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  return BO && BO->getOpcode() == BO_Sub && isWarpWidth(BO->getLHS()) &&
         isInteger(BO->getRHS(), 1);
}

/// `x / width`, `x / 32`, `x >> 5`: the index of x's warp.
bool isWarpIndex(const BinaryOperator *BO) {
  if (BO->getOpcode() == BO_Div)
    return isWarpWidth(BO->getRHS()) || isInteger(BO->getRHS(), 32);
  return BO->getOpcode() == BO_Shr && isInteger(BO->getRHS(), 5);
}

} // namespace

StringRef warpCollectiveName(const CallExpr *CE) {
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  StringRef Name;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee)) {
    const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
    if (!FD || isa<CXXMethodDecl>(FD) || !FD->getIdentifier())
      return "";
    Name = FD->getName();
  } else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee)) {
    if (!ULE->getName().isIdentifier())
      return "";
    Name = ULE->getName().getAsIdentifierInfo()->getName();
  } else {
    return "";
  }
  return warpCollectiveKind(Name) == WarpCollectiveKind::None ? StringRef()
                                                              : Name;
}

WarpCollectiveKind warpCollectiveKind(StringRef Name) {
  return llvm::StringSwitch<WarpCollectiveKind>(Name)
#define HPP_WARP_COLLECTIVE(N, Kind) .Case(#N, WarpCollectiveKind::Kind)
#include "Analysis/WarpCollectives.def"
      .Default(WarpCollectiveKind::None);
}

unsigned writtenArgCount(const CallExpr *CE) {
  unsigned N = 0;
  for (const Expr *A : CE->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      ++N;
  return N;
}

bool isWarpWidth(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->getIdentifier() && isWidthVariableName(VD->getName());
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    return FD && FD->getIdentifier() && isWidthFunctionName(FD->getName()) &&
           isDialectAPI(FD) && writtenArgCount(CE) == 0;
  }
  return false;
}

static bool readsWarpWidth(const Stmt *S, unsigned Depth) {
  if (const auto *E = dyn_cast<Expr>(S); E && isWarpWidth(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (Depth < 8 && !isa<ParmVarDecl>(VD) && VD->getInit() &&
          readsWarpWidth(VD->getInit(), Depth + 1))
        return true;
  for (const Stmt *Child : S->children())
    if (Child && readsWarpWidth(Child, Depth))
      return true;
  return false;
}

bool readsWarpWidth(const Stmt *S) { return S && readsWarpWidth(S, 0); }

bool isIdSource(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->getIdentifier() && VD->hasGlobalStorage() &&
           isIdVariableName(VD->getName());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) // threadIdx.x
    return isIdSource(ME->getBase());
  // threadIdx.x under clang's CUDA front end: a property of threadIdx (an
  // MSPropertyRefExpr in a PseudoObjectExpr).
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return isIdSource(POE->getSyntacticForm());
  if (const auto *MPR = dyn_cast<MSPropertyRefExpr>(E))
    return isIdSource(MPR->getBaseExpr());
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return OVE->getSourceExpr() && isIdSource(OVE->getSourceExpr());
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    return MD && MD->getIdentifier() && isIdAccessor(MD->getName()) &&
           isIndexType(MCE->getImplicitObjectArgument()->getType());
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    // `i.getX()` on an Index<N> whose N is a template parameter.
    if (const auto *DME = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
      return DME->getMember().isIdentifier() &&
             isIdAccessor(DME->getMember().getAsString()) &&
             !DME->isImplicitAccess() && isIndexType(DME->getBaseType());
    if (const FunctionDecl *FD = CE->getDirectCallee())
      return FD->getIdentifier() && isIdFunctionName(FD->getName());
  }
  return false;
}

LaneId::LaneId(const Stmt *Body) {
  if (!Body)
    return;
  AssignmentCollector C;
  C.TraverseStmt(const_cast<Stmt *>(Body));
  // Propagate to a fixed point: `a = id; b = a + 1;` in any order.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto [VD, Value] : C.Found)
      if (!Tainted.contains(VD) && dependsOnId(Value)) {
        Tainted.insert(VD);
        Changed = true;
      }
  }
  for (const VarDecl *VD : C.Initialised)
    if (isLaneIndex(VD->getInit()))
      LaneVars.insert(VD);
}

bool LaneId::isLaneIndex(const Expr *E) const {
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return LaneVars.contains(dyn_cast<VarDecl>(DRE->getDecl()));
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  if (BO->getOpcode() == BO_Rem)
    return dependsOnId(L) && (isInteger(R, 32) || isWarpWidth(R));
  if (BO->getOpcode() == BO_And)
    return (dependsOnId(L) && isLaneMask(R)) ||
           (dependsOnId(R) && isLaneMask(L));
  return false;
}

bool LaneId::dependsOnId(const Expr *E) const {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (isIdSource(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && Tainted.contains(VD);
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return dependsOnId(Cast->getSubExpr());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return dependsOnId(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return dependsOnId(BO->getRHS());
    if (BO->isAssignmentOp())
      return dependsOnId(BO->getRHS()) ||
             (BO->isCompoundAssignmentOp() && dependsOnId(BO->getLHS()));
    // id / width: the warp's index, the same for every lane of the warp;
    // `id / 32` and `id >> 5` too: the index of a 32-lane warp.
    if (isWarpIndex(BO))
      return false;
    return dependsOnId(BO->getLHS()) || dependsOnId(BO->getRHS());
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return dependsOnId(CO->getCond()) || dependsOnId(CO->getTrueExpr()) ||
           dependsOnId(CO->getFalseExpr());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dependsOnId(ME->getBase());
  // A value loaded at an id-dependent index.
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return dependsOnId(AS->getBase()) || dependsOnId(AS->getIdx());
  // A function of an id-dependent argument (a warp collective's result is
  // the warp's business: not followed).
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (!warpCollectiveName(CE).empty())
      return false;
    for (const Expr *Arg : CE->arguments())
      if (dependsOnId(Arg))
        return true;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      return dependsOnId(MC->getImplicitObjectArgument());
  }
  return false;
}

} // namespace rewrite
} // namespace hpp
