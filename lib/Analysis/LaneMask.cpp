//===- LaneMask.cpp - Lane masks in device code ---------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/LaneMask.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {

/// The warp intrinsics of WarpIntrinsics.def and __syncwarp.
bool isWarpIntrinsic(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_WARP_INTRINSIC(Cuda, Hpp, MakesMask) .Case(#Cuda, true)
#include "Dialect/WarpIntrinsics.def"
      .Case("__syncwarp", true)
      .Default(false);
}

/// True for the intrinsics whose result is a lane mask.
bool makesMask(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_WARP_INTRINSIC(Cuda, Hpp, MakesMask) .Case(#Cuda, MakesMask)
#include "Dialect/WarpIntrinsics.def"
      .Default(false);
}

/// True when \p E is built from integer literals alone (`~0u`, `-1`).
bool isLiteralOnly(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<IntegerLiteral>(E))
    return true;
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return CE->getType()->isIntegerType() && isLiteralOnly(CE->getSubExpr());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Not || UO->getOpcode() == UO_Minus ||
            UO->getOpcode() == UO_Plus) &&
           isLiteralOnly(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isCommaOp() &&
           isLiteralOnly(BO->getLHS()) && isLiteralOnly(BO->getRHS());
  return false;
}

/// Calls \p F on each part of \p E that keeps its mask-ness: \p E itself,
/// or through `& | ^ ~`, `?:`, the left side of `+ -` (`m - 1`,
/// `(1u << lane) - 1`), the comma's right side, parentheses and casts. A
/// literal-only part is one part (`~0u`, not `0u`).
template <class Fn> void forEachPart(const Expr *E, Fn F) {
  if (!E)
    return;
  E = E->IgnoreImplicit();
  if (isLiteralOnly(E))
    return F(E);
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_And:
    case BO_Or:
    case BO_Xor:
      forEachPart(BO->getLHS(), F);
      return forEachPart(BO->getRHS(), F);
    case BO_Add:
    case BO_Sub:
      return forEachPart(BO->getLHS(), F);
    case BO_Comma:
      return forEachPart(BO->getRHS(), F);
    default:
      break;
    }
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Not)
      return forEachPart(UO->getSubExpr(), F);
  } else if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    forEachPart(CO->getTrueExpr(), F);
    return forEachPart(CO->getFalseExpr(), F);
  }
  F(E);
}

/// The variable \p E names, or null.
const VarDecl *namedVariable(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// Where a store to \p LHS (not a variable) puts a value, or std::nullopt.
std::optional<MaskEscape> storeTarget(const Expr *LHS, const Expr *At) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(LHS))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      return MaskEscape{MaskEscape::Field, At, FD, FD->getType()};
  const Expr *Base = nullptr;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS))
    Base = ASE->getBase();
  else if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(LHS))
    if (OCE->getOperator() == OO_Subscript)
      Base = OCE->getArg(0);
  if (!Base)
    return std::nullopt;
  const VarDecl *Array = namedVariable(Base);
  return MaskEscape{MaskEscape::Element, At, Array, LHS->getType()};
}

} // namespace

/// Collects the groups, sinks and candidates of one root of device code.
class FlowCollector : public DynamicASTVisitor {
public:
  FlowCollector(LaneMaskFlow &F, const FunctionDecl *Fn, const ASTContext &Ctx)
      : F(F), Ctx(Ctx) {
    Functions.push_back(Fn);
  }

  bool TraverseLambdaExpr(LambdaExpr *LE) override {
    Functions.push_back(LE->getCallOperator());
    bool Result = DynamicASTVisitor::TraverseLambdaExpr(LE);
    Functions.pop_back();
    return Result;
  }

  /// hpp-syncwarp drops the arguments of __syncwarp: nothing in them
  /// counts (or may be edited).
  bool TraverseCallExpr(CallExpr *CE) override {
    return globalCalleeName(CE) == "__syncwarp" ||
           DynamicASTVisitor::TraverseCallExpr(CE);
  }

  bool VisitVarDecl(VarDecl *VD) override {
    F.Locals.insert(VD);
    if (isa<ParmVarDecl>(VD))
      return true;
    SourceRange Spec = typeSpecifierRange(VD);
    if (Spec.isValid())
      F.BySpecifier[Spec.getBegin()].push_back(VD);
    if (const Expr *Init = VD->getInit())
      addGroup({Init}, VD, Init);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) override {
    switch (BO->getOpcode()) {
    case BO_Assign:
    case BO_AndAssign:
    case BO_OrAssign:
    case BO_XorAssign:
      if (const VarDecl *VD = namedVariable(BO->getLHS()))
        addGroup({BO->getRHS()}, VD, BO);
      else if (isNarrowInteger(BO->getLHS()->getType(), Ctx))
        if (auto Escape = storeTarget(BO->getLHS(), BO))
          F.Sinks.push_back({*Escape, BO->getRHS()});
      break;
    case BO_And:
    case BO_Or:
    case BO_Xor:
    case BO_EQ:
    case BO_NE:
      addGroup({BO->getLHS(), BO->getRHS()});
      break;
    default:
      break;
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) override {
    if (isa<CXXOperatorCallExpr>(CE))
      return true;
    StringRef Name = globalCalleeName(CE);
    if (const Expr *Mask = laneMaskArgument(CE)) {
      F.Groups.emplace_back();
      F.Groups.back().Values.push_back(Mask);
      F.Groups.back().Forced = true;
    }
    if (!maskBitFunction(Name).empty() && CE->getNumArgs() >= 1)
      F.BitCallCandidates.push_back(CE);
    if (isWarpIntrinsic(Name) || !maskBitFunction(Name).empty())
      return true;
    addArgumentFlows(CE);
    return true;
  }

  bool VisitReturnStmt(ReturnStmt *RS) override {
    const FunctionDecl *Fn = Functions.back();
    QualType T = Fn ? Fn->getDeclaredReturnType() : QualType();
    if (RS->getRetValue() && !T.isNull() && !T->getContainedAutoType() &&
        isNarrowInteger(T, Ctx))
      F.Sinks.push_back(
          {{MaskEscape::Return, RS->getRetValue(), Fn, T}, RS->getRetValue()});
    return true;
  }

private:
  void addGroup(std::initializer_list<const Expr *> Values,
                const VarDecl *Var = nullptr, const Expr *Site = nullptr) {
    F.Groups.emplace_back();
    F.Groups.back().Values.assign(Values.begin(), Values.end());
    F.Groups.back().Var = Var;
    F.Groups.back().VarSite = Site;
  }

  /// Arguments flow into the parameters of device functions the tool
  /// edits; into other narrow parameters they are sinks.
  void addArgumentFlows(const CallExpr *CE) {
    if (const FunctionDecl *Callee = CE->getDirectCallee()) {
      addArgumentFlows(CE, Callee);
      return;
    }
    // A call in a template that names its function by a dependent lookup
    // (`warpSum(0xffffffffu, v)` with v of type T): its arguments flow
    // into the parameters of every function the name may resolve to.
    const auto *ULE =
        dyn_cast<UnresolvedLookupExpr>(CE->getCallee()->IgnoreParenImpCasts());
    if (!ULE)
      return;
    for (const NamedDecl *D : ULE->decls()) {
      D = D->getUnderlyingDecl();
      if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
        D = FTD->getTemplatedDecl();
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        addArgumentFlows(CE, FD);
    }
  }

  void addArgumentFlows(const CallExpr *CE, const FunctionDecl *Callee) {
    const FunctionDecl *Def = Callee->getTemplateInstantiationPattern();
    if (!Def)
      Def = Callee->getDefinition() ? Callee->getDefinition() : Callee;
    bool Editable = F.EditableFunctions.count(Def);
    unsigned N = std::min(CE->getNumArgs(), Def->getNumParams());
    for (unsigned I = 0; I < N; ++I) {
      const Expr *Arg = CE->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg))
        break;
      const ParmVarDecl *P = Def->getParamDecl(I);
      if (Editable)
        addGroup({Arg}, P, Arg);
      else if (isNarrowInteger(P->getType(), Ctx))
        F.Sinks.push_back({{MaskEscape::Parameter, Arg, P, P->getType()}, Arg});
    }
  }

  LaneMaskFlow &F;
  const ASTContext &Ctx;
  std::vector<const FunctionDecl *> Functions;
};

StatementMatcher globalCallTo(ArrayRef<StringRef> Names) {
  std::vector<std::string> Qualified;
  for (StringRef Name : Names)
    Qualified.push_back(("::" + Name).str());
  std::vector<StringRef> Refs(Qualified.begin(), Qualified.end());
  auto Named = hasAnyName(Refs);
  return callExpr(callee(expr(ignoringParenImpCasts(
                                  anyOf(declRefExpr(to(functionDecl(Named))),
                                        unresolvedLookupExpr(hasAnyDeclaration(
                                            namedDecl(Named))))))
                             .bind("callee")))
      .bind("call");
}

ArrayRef<StringRef> warpIntrinsicNames() {
  static const StringRef Names[] = {
#define HPP_WARP_INTRINSIC(Cuda, Hpp, MakesMask) #Cuda,
#include "Dialect/WarpIntrinsics.def"
  };
  return Names;
}

StringRef warpOperation(StringRef Name) {
  return llvm::StringSwitch<StringRef>(Name)
#define HPP_WARP_INTRINSIC(Cuda, Hpp, MakesMask) .Case(#Cuda, #Hpp)
#include "Dialect/WarpIntrinsics.def"
      .Default("");
}

StringRef globalCalleeName(const CallExpr *CE) {
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  const NamedDecl *D = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    D = DRE->getDecl();
  else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    D = ULE->getNumDecls() ? (*ULE->decls_begin())->getUnderlyingDecl()
                           : nullptr;
  if (!D || !D->getIdentifier() || !isa<FunctionDecl, FunctionTemplateDecl>(D))
    return "";
  if (!D->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return "";
  return D->getName();
}

const Expr *laneMaskArgument(const CallExpr *CE) {
  if (CE->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(CE->getArg(0)))
    return nullptr;
  return isWarpIntrinsic(globalCalleeName(CE)) ? CE->getArg(0) : nullptr;
}

bool isWideLaneMask(const CallExpr *CE, const ASTContext &Ctx) {
  const Expr *Mask = laneMaskArgument(CE);
  if (!Mask)
    return false;
  auto Wide = [&](QualType T) {
    return !T->isDependentType() && T->isIntegerType() &&
           Ctx.getIntWidth(T) >= 64;
  };
  return Wide(Mask->getType()) && Wide(Mask->IgnoreParenImpCasts()->getType());
}

StringRef maskBitFunction(StringRef Name) {
  return llvm::StringSwitch<StringRef>(Name)
#define HPP_MASK_BIT_FUNCTION(Cuda, Hpp) .Case(#Cuda, #Hpp)
#include "Dialect/WarpIntrinsics.def"
      .Default("");
}

MaskLiteral classifyMaskLiteral(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreImplicit();
  if (!isLiteralOnly(E) || E->isValueDependent())
    return MaskLiteral::None;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return MaskLiteral::None;
  llvm::APSInt V = R.Val.getInt();
  if (V.isZero())
    return MaskLiteral::Empty;
  unsigned Width = V.getBitWidth();
  llvm::APInt Low32 = V.zextOrTrunc(32);
  bool HighUniform =
      Width <= 32 || V.lshr(32).isZero() || V.ashr(32).isAllOnes();
  if (Low32.isAllOnes() && HighUniform)
    return MaskLiteral::Full;
  return V.getActiveBits() < 16 ? MaskLiteral::Low : MaskLiteral::Partial;
}

bool isNarrowInteger(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || T->isDependentType())
    return false;
  T = T.getNonReferenceType();
  return T->isIntegerType() && !T->isBooleanType() && Ctx.getIntWidth(T) < 64;
}

SourceRange typeSpecifierRange(const DeclaratorDecl *D) {
  const TypeSourceInfo *TSI = D->getTypeSourceInfo();
  if (!TSI || D->getType()->getContainedAutoType())
    return {};
  TypeLoc TL = TSI->getTypeLoc().getUnqualifiedLoc();
  // `unsigned &m` holds a mask as much as `unsigned m`.
  if (auto Ref = TL.getAs<ReferenceTypeLoc>())
    TL = Ref.getPointeeLoc().getUnqualifiedLoc();
  if (TL.getAs<ReferenceTypeLoc>() || TL.getAs<PointerTypeLoc>() ||
      TL.getAs<ArrayTypeLoc>() || TL.getAs<FunctionTypeLoc>())
    return {};
  return TL.getSourceRange();
}

CharSourceRange editRange(const Expr *E, const SourceManager &SM,
                          const LangOptions &LO) {
  CharSourceRange Tokens = CharSourceRange::getTokenRange(E->getSourceRange());
  CharSourceRange File = Lexer::makeFileCharRange(Tokens, SM, LO);
  return File.isValid() ? File : Tokens;
}

ArrayRef<const VarDecl *>
LaneMaskFlow::sharingTypeSpecifier(SourceLocation Loc) const {
  auto It = BySpecifier.find(Loc);
  if (It == BySpecifier.end())
    return {};
  return It->second;
}

void LaneMaskFlow::addRoot(const FunctionDecl *F, const Stmt *Body,
                           bool EditableParameters) {
  Roots.push_back({F, Body});
  if (!EditableParameters)
    return;
  EditableFunctions.insert(F);
  for (const ParmVarDecl *P : F->parameters())
    Locals.insert(P);
}

bool LaneMaskFlow::isMask(const Expr *E) const {
  bool Found = false;
  forEachPart(E, [&](const Expr *Part) {
    if (const VarDecl *VD = namedVariable(Part))
      Found |= MaskVars.contains(VD);
    else if (const auto *CE = dyn_cast<CallExpr>(Part))
      Found |= makesMask(globalCalleeName(CE));
  });
  return Found;
}

bool LaneMaskFlow::markVariable(const VarDecl *VD, const Expr *Site,
                                const ASTContext &Ctx) {
  if (Locals.count(VD))
    return MaskVars.insert(VD);
  if (isNarrowInteger(VD->getType(), Ctx) && OuterReported.insert(VD).second)
    Escapes.push_back({MaskEscape::OuterVariable, Site, VD, VD->getType()});
  return false;
}

void LaneMaskFlow::solve(const ASTContext &Ctx) {
  for (const Root &R : Roots)
    FlowCollector(*this, R.F, Ctx).TraverseStmt(const_cast<Stmt *>(R.Body));
  // Groups turn into masks one by one; each turn may mark more variables.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Group &G : Groups) {
      if (G.Mask ||
          !(G.Forced || (G.Var && MaskVars.contains(G.Var)) ||
            llvm::any_of(G.Values, [&](const Expr *E) { return isMask(E); })))
        continue;
      G.Mask = Changed = true;
      if (G.Var)
        markVariable(G.Var, G.VarSite, Ctx);
      for (const Expr *Value : G.Values)
        forEachPart(Value, [&](const Expr *Part) {
          if (const VarDecl *VD = namedVariable(Part))
            markVariable(VD, Part, Ctx);
          else if (auto Escape = storeTarget(Part, Part))
            if (isNarrowInteger(Part->getType(), Ctx))
              Escapes.push_back(*Escape);
        });
    }
  }
  for (const Group &G : Groups) {
    if (!G.Mask)
      continue;
    for (const Expr *Value : G.Values)
      forEachPart(Value, [&](const Expr *Part) {
        // `1u << lane`: a lane bit, as wide as the mask it goes into.
        if (const auto *BO = dyn_cast<BinaryOperator>(Part))
          if (BO->getOpcode() == BO_Shl &&
              classifyMaskLiteral(BO->getLHS(), Ctx) != MaskLiteral::None &&
              isNarrowInteger(BO->getLHS()->getType(), Ctx)) {
            Literals.insert(BO->getLHS()->IgnoreImplicit());
            ShiftedLiterals.insert(BO->getLHS()->IgnoreImplicit());
            return;
          }
        if (classifyMaskLiteral(Part, Ctx) == MaskLiteral::None)
          return;
        Literals.insert(Part);
        if (Part == Value->IgnoreImplicit())
          WholeLiterals.insert(Part);
      });
  }
  for (const CallExpr *CE : BitCallCandidates)
    if (isMask(CE->getArg(0)))
      MaskBitCalls.push_back(CE);
  for (const Sink &S : Sinks)
    if (isMask(S.Value))
      Escapes.push_back(S.Escape);
}

} // namespace rewrite
} // namespace hpp
