//===- CudaVolatileWarpCheck.cpp - Warp-synchronous volatile code ---------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/CudaVolatileWarpCheck.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/LaneId.h"
#include "Analysis/LaneMask.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <vector>

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {

bool isWarpBarrierName(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_WARP_BARRIER(N) .Case(#N, true)
#include "Rules/WarpBarriers.def"
      .Default(false);
}

bool isGroupBarrierName(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define HPP_GROUP_BARRIER(N) .Case(#N, true)
#include "Rules/WarpBarriers.def"
      .Default(false);
}

/// The name a call calls by, resolved or not ("" when it has none).
llvm::StringRef calledName(const CallExpr *CE) {
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  DeclarationName Name;
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    Name = ME->getMemberDecl()->getDeclName();
  else if (const auto *DME = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    Name = DME->getMember();
  else if (const auto *OE = dyn_cast<OverloadExpr>(Callee))
    Name = OE->getName();
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    Name = DRE->getDecl()->getDeclName();
  else if (const auto *DSRE = dyn_cast<DependentScopeDeclRefExpr>(Callee))
    Name = DSRE->getDeclName();
  const IdentifierInfo *II = Name.getAsIdentifierInfo();
  return II ? II->getName() : "";
}

/// The values of one body that differ between lanes: LaneId's (which
/// sees `threadIdx.x` through clang's CUDA front end, a property of
/// threadIdx), the id variables themselves, and local variables computed
/// from either through any expression, to a fixed point. The warp's index (`id
/// / 32`, `id >> 5`, `id / warpSize`) is the same for a warp's lanes.
class LaneTerms {
public:
  explicit LaneTerms(const Stmt *Body) : Ids(Body) {
    collect(Body);
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto [VD, Value] : Values)
        if (!Tainted.contains(VD) && depends(Value)) {
          Tainted.insert(VD);
          Changed = true;
        }
    }
  }

  bool depends(const Expr *E) const {
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    if (Ids.dependsOnId(E) || isIdSource(E))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD && (Tainted.contains(VD) || Ids.isIdVariable(VD));
    }
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
      return depends(OVE->getSourceExpr());
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      const auto *IL = dyn_cast<IntegerLiteral>(R);
      if ((BO->getOpcode() == BO_Div &&
           ((IL && IL->getValue() == 32) || isWarpWidth(R))) ||
          (BO->getOpcode() == BO_Shr && IL && IL->getValue() == 5))
        return false;
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child); CE && depends(CE))
        return true;
    return false;
  }

private:
  void collect(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
          Values.push_back({VD, VD->getInit()});
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Values.push_back({VD, BO->getRHS()});
    for (const Stmt *Child : S->children())
      collect(Child);
  }

  LaneId Ids;
  llvm::DenseSet<const VarDecl *> Tainted;
  std::vector<std::pair<const VarDecl *, const Expr *>> Values;
};

/// One access through volatile memory at a lane's index: `Base[Lane +
/// Offset]` (Offset null for `Base[Lane]`).
struct VolatileAccess {
  const VarDecl *Base;
  const Expr *Lane;
  const Expr *Offset;
  bool Minus;
  /// The subscript, and the statement it is part of.
  const ArraySubscriptExpr *At;
  const Stmt *Statement;
};

/// Follows one body's statements in order, with the writes through volatile
/// memory since the last barrier; reports the first read of another lane's
/// element.
class VolatileStepWalker {
public:
  VolatileStepWalker(const FunctionDecl *Function, const Stmt *Body,
                     ASTContext &AST)
      : Function(Function), Lanes(Body), AST(AST) {}

  /// The write and the read of the first conflict, if any.
  const VolatileAccess *Write = nullptr;
  const VolatileAccess *Read = nullptr;

  void walk(const Stmt *S, const Stmt *Top = nullptr) {
    if (!S || Write)
      return;
    if (!Top && isa<Expr>(S))
      Top = S;
    if (isa<LambdaExpr>(S))
      return;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      walk(If->getConditionVariableDeclStmt());
      walk(If->getCond());
      std::vector<VolatileAccess> Before = Pending;
      walk(If->getThen());
      std::vector<VolatileAccess> Then = std::move(Pending);
      Pending = std::move(Before);
      walk(If->getElse());
      Pending.insert(Pending.end(), Then.begin(), Then.end());
      return;
    }
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
      // Twice: the writes of one iteration meet the reads of the next.
      for (int Pass = 0; Pass < 2; ++Pass)
        for (const Stmt *Child : S->children())
          walk(Child);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      walkCall(Call, Top);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp()) {
      walkAssignment(BO->getLHS(), BO->getRHS(), BO->isCompoundAssignmentOp(),
                     Top);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp()) {
      walkAssignment(UO->getSubExpr(), nullptr, true, Top);
      return;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
      walk(ASE->getBase(), Top);
      walk(ASE->getIdx(), Top);
      if (std::optional<VolatileAccess> A = access(ASE, Top))
        read(*A);
      return;
    }
    for (const Stmt *Child : S->children())
      walk(Child, isa<Expr>(S) ? Top : nullptr);
  }

private:
  void walkCall(const CallExpr *Call, const Stmt *Top) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->isAssignmentOp() && Op->getNumArgs() == 2) {
      walkAssignment(Op->getArg(0), Op->getArg(1),
                     Op->getOperator() != OO_Equal, Top);
      return;
    }
    for (const Stmt *Child : Call->children())
      walk(Child, Top);
    if (isBarrier(Call))
      Pending.clear();
  }

  /// `LHS op= RHS` (a compound assignment, `++` or `--` when \p Reads).
  void walkAssignment(const Expr *LHS, const Expr *RHS, bool Reads,
                      const Stmt *Top) {
    walk(RHS, Top);
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS->IgnoreParens());
    std::optional<VolatileAccess> A =
        ASE ? access(ASE, Top) : std::optional<VolatileAccess>();
    if (!A) {
      walk(LHS, Top);
      return;
    }
    walk(ASE->getIdx(), Top);
    if (Reads)
      read(*A);
    if (!Write && Pending.size() < 64)
      Pending.push_back(*A);
  }

  void read(const VolatileAccess &A) {
    for (const VolatileAccess &W : Pending)
      if (W.Base == A.Base && same(W.Lane, A.Lane) &&
          (W.Minus != A.Minus || !same(W.Offset, A.Offset))) {
        Accesses.push_back(W);
        Accesses.push_back(A);
        Write = &Accesses[0];
        Read = &Accesses[1];
        return;
      }
  }

  /// `Base[Lane + Offset]` for a volatile base and a lane's index.
  std::optional<VolatileAccess> access(const ArraySubscriptExpr *ASE,
                                       const Stmt *Top) const {
    const auto *DRE =
        dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !isVolatileMemory(VD))
      return std::nullopt;
    const Expr *Idx = ASE->getIdx()->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(Idx);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
      bool Minus = BO->getOpcode() == BO_Sub;
      if (isLane(L) && !isLane(R))
        return VolatileAccess{VD, L, R, Minus, ASE, Top};
      if (!Minus && isLane(R) && !isLane(L))
        return VolatileAccess{VD, R, L, false, ASE, Top};
    }
    if (!isLane(Idx))
      return std::nullopt;
    return VolatileAccess{VD, Idx, nullptr, false, ASE, Top};
  }

  /// A pointer to volatile, or a `__shared__` array of volatile elements
  /// (a local array is the lane's own).
  bool isVolatileMemory(const VarDecl *VD) const {
    QualType T = VD->getType();
    if (const auto *PT = T->getAs<PointerType>())
      return PT->getPointeeType().isVolatileQualified();
    if (const ArrayType *AT = AST.getAsArrayType(T))
      return VD->hasAttr<CUDASharedAttr>() &&
             AT->getElementType().isVolatileQualified();
    return false;
  }

  /// An index that differs between lanes: it depends on the thread index,
  /// or it is an integer parameter of a device function (the caller's
  /// `tid`).
  bool isLane(const Expr *E) const {
    if (Lanes.depends(E))
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    return P && Function && !Function->hasAttr<CUDAGlobalAttr>() &&
           P->getDeclContext() == Function &&
           (P->getType()->isIntegralOrEnumerationType() ||
            P->getType()->isDependentType());
  }

  bool same(const Expr *A, const Expr *B) const {
    if (!A || !B)
      return A == B;
    llvm::FoldingSetNodeID IA, IB;
    A->Profile(IA, AST, /*Canonical=*/true);
    B->Profile(IB, AST, /*Canonical=*/true);
    return IA == IB;
  }

  /// A barrier of the table, or a call of a function that reaches one.
  bool isBarrier(const CallExpr *Call, unsigned Depth = 0) {
    llvm::StringRef Name = calledName(Call);
    if (isWarpBarrierName(Name) && !globalCalleeName(Call).empty())
      return true;
    if (isGroupBarrierName(Name))
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || Depth > 4)
      return false;
    // False while it is being looked at: a recursive call adds nothing.
    if (!Reaches.try_emplace(Def, false).second)
      return Reaches.lookup(Def);
    bool Found = containsBarrier(Def->getBody(), Depth + 1);
    Reaches[Def] = Found;
    return Found;
  }

  bool containsBarrier(const Stmt *S, unsigned Depth) {
    if (!S)
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && isBarrier(Call, Depth))
      return true;
    for (const Stmt *Child : S->children())
      if (containsBarrier(Child, Depth))
        return true;
    return false;
  }

  const FunctionDecl *Function;
  LaneTerms Lanes;
  ASTContext &AST;
  std::vector<VolatileAccess> Pending;
  std::vector<VolatileAccess> Accesses;
  llvm::DenseMap<const FunctionDecl *, bool> Reaches;
};

/// The text of \p S as written, for a note: where a macro's body spells
/// it, that text ("the element" when no one text is it).
std::string spelledElement(const Stmt *S, const ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  const LangOptions &LO = AST.getLangOpts();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM, LO);
  if (R.isInvalid()) {
    SourceLocation B = SM.getSpellingLoc(S->getBeginLoc());
    SourceLocation E = SM.getSpellingLoc(S->getEndLoc());
    if (SM.getFileID(B) == SM.getFileID(E) &&
        !SM.isBeforeInTranslationUnit(E, B))
      R = CharSourceRange::getTokenRange(B, E);
  }
  llvm::StringRef Text = R.isValid() ? Lexer::getSourceText(R, SM, LO) : "";
  return Text.empty() || Text.size() > 40 || Text.contains('\n')
             ? "the element"
             : ("'" + Text + "'").str();
}

} // namespace

void CudaVolatileWarpCheck::registerMatchers(MatchFinder &Finder) {
  if (Ctx.CI.getLangOpts().CUDA)
    addDeviceRootMatchers(Finder, this, Ctx);
}

void CudaVolatileWarpCheck::run(const MatchFinder::MatchResult &Result) {
  if (!Ctx.CI.getLangOpts().CUDA)
    return;
  const DeviceRoot *Root = Ctx.deviceCode().root(Result);
  if (!Root || Root->Lambda)
    return;
  ASTContext &AST = *Result.Context;
  const SourceManager &SM = AST.getSourceManager();
  VolatileStepWalker Walker(Root->Function, Root->Body, AST);
  Walker.walk(Root->Body);
  if (!Walker.Write)
    return;
  SourceLocation At =
      SM.getExpansionLoc(Walker.Write->Statement->getBeginLoc());
  if (!isWrittenInRewrittenFile(SM, At))
    return;
  warning(At, "warp-synchronous code: lanes exchange values through volatile "
              "memory with no __syncwarp() between the steps, which is right "
              "only while the warp runs in lockstep (not under independent "
              "thread scheduling, Volta and later, nor on the CPU backend)");
  note(SM.getExpansionLoc(Walker.Read->At->getBeginLoc()),
       "a lane reads " + spelledElement(Walker.Read->At, AST) +
           " here, which another lane writes as " +
           spelledElement(Walker.Write->At, AST) +
           (Walker.Write->Statement == Walker.Read->Statement
                ? " in the iteration before"
                : " before") +
           ", with no barrier between");
  note(At, "write __syncwarp() between the read and the write of each step "
           "(`v = s[tid] + s[tid + 16]; __syncwarp(); s[tid] = v; "
           "__syncwarp();`), or reduce in registers with __shfl_down_sync "
           "(docs/port.md)");
}

} // namespace rewrite
} // namespace hpp
