//===- LaunchFacts.cpp - 32-lane facts of a kernel's launches -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/LaunchFacts.h"
#include "Framework/DynamicASTVisitor.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

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

/// How host function \p Fn's body writes each of its local variables: the
/// values assigned to it (its initialiser, `v = e`, `v = dim3(...)`), or
/// that it is written some other way (its address taken, `v += e`, `++v`,
/// bound to a reference, a member assigned).
class LocalWrites {
public:
  LocalWrites(const FunctionDecl *Fn) : Fn(Fn) {
    if (Fn->getBody())
      walk(Fn->getBody());
  }

  /// \p VD is a local variable of the function, and the tool sees every
  /// value it takes (Values).
  bool known(const VarDecl *VD) const {
    return VD->isLocalVarDecl() && !VD->isStaticLocal() &&
           VD->getDeclContext() == Fn && !VD->getType().isVolatileQualified() &&
           !Escaped.count(VD);
  }
  /// The values \p VD takes: its initialiser and the right-hand sides of
  /// its assignments.
  llvm::SmallVector<const Expr *, 2> values(const VarDecl *VD) const {
    llvm::SmallVector<const Expr *, 2> Out;
    if (VD->getInit())
      Out.push_back(VD->getInit());
    if (auto It = Assigned.find(VD); It != Assigned.end())
      Out.append(It->second.begin(), It->second.end());
    return Out;
  }

private:
  /// The parent of Stack.back() that is not a parenthesis, \p Up levels up.
  const Stmt *parent(unsigned Up) const {
    for (size_t I = Stack.size() - 1; I-- > 0;)
      if (!isa<ParenExpr>(Stack[I]) && Up-- == 0)
        return Stack[I];
    return nullptr;
  }

  void classify(const DeclRefExpr *DRE, const VarDecl *VD) {
    const Stmt *P = parent(0);
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
    if (Cast && (Cast->getCastKind() == CK_LValueToRValue ||
                 Cast->getCastKind() == CK_NoOp))
      return;
    if (isa_and_nonnull<CXXConstructExpr>(P))
      return; // a copy
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
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(parent(1));
      if (Read && Read->getCastKind() == CK_LValueToRValue)
        return; // `block.x` read
    }
    Escaped.insert(VD);
  }

  void walk(const Stmt *S) {
    if (!S)
      return;
    Stack.push_back(S);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->isLocalVarDecl())
        classify(DRE, VD);
    for (const Stmt *Child : S->children())
      walk(Child);
    Stack.pop_back();
  }

  const FunctionDecl *Fn;
  std::vector<const Stmt *> Stack;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Assigned;
  llvm::SmallPtrSet<const VarDecl *, 8> Escaped;
};

/// One launch's block, x by y by z threads.
struct BlockDims {
  uint64_t X = 1, Y = 1, Z = 1;
};

/// The values an integer or dim3 expression of a host function may take,
/// where the tool sees them all: constants (literals, macros, constexpr,
/// template arguments), local variables through every value written to
/// them, both arms of a conditional, arithmetic of such values.
class BlockEval {
public:
  BlockEval(const LocalWrites &Writes, ASTContext &Ctx)
      : Writes(Writes), Ctx(Ctx) {}

  using Ints = llvm::SmallVector<uint64_t, 4>;
  using Blocks = llvm::SmallVector<BlockDims, 4>;
  /// At most this many values per expression; more are not evaluated.
  static constexpr size_t Limit = 16;

  std::optional<Ints> ints(const Expr *E) {
    if (!E || E->isValueDependent() || E->isTypeDependent() || ++Depth > 64)
      return std::nullopt;
    std::optional<Ints> R = intsOf(E->IgnoreParenCasts());
    --Depth;
    return R;
  }

  std::optional<Blocks> blocks(const Expr *E) {
    if (!E || E->isValueDependent() || E->isTypeDependent() || ++Depth > 64)
      return std::nullopt;
    std::optional<Blocks> R = blocksOf(E);
    --Depth;
    return R;
  }

private:
  std::optional<Ints> intsOf(const Expr *E) {
    Expr::EvalResult R;
    if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx))
      return Ints{
          R.Val.getInt().getExtValue() < 0 ? 0 : R.Val.getInt().getZExtValue()};
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
      return ints(DA->getExpr());
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      std::optional<Ints> A = ints(CO->getTrueExpr()),
                          B = ints(CO->getFalseExpr());
      if (!A || !B || A->size() + B->size() > Limit)
        return std::nullopt;
      A->append(B->begin(), B->end());
      return A;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma)
        return ints(BO->getRHS());
      std::optional<Ints> A = ints(BO->getLHS()), B = ints(BO->getRHS());
      if (!A || !B || A->size() * B->size() > Limit)
        return std::nullopt;
      Ints Out;
      for (uint64_t L : *A)
        for (uint64_t Rt : *B) {
          std::optional<uint64_t> V = apply(BO->getOpcode(), L, Rt);
          if (!V)
            return std::nullopt;
          Out.push_back(*V);
        }
      return Out;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return throughVariable<Ints>(VD,
                                     [&](const Expr *V) { return ints(V); });
    return std::nullopt;
  }

  static std::optional<uint64_t> apply(BinaryOperatorKind Op, uint64_t L,
                                       uint64_t R) {
    switch (Op) {
    case BO_Add:
      return L + R;
    case BO_Sub:
      return L >= R ? L - R : 0;
    case BO_Mul:
      return L * R;
    case BO_Div:
      return R ? std::optional<uint64_t>(L / R) : std::nullopt;
    case BO_Rem:
      return R ? std::optional<uint64_t>(L % R) : std::nullopt;
    case BO_Shl:
      return R < 32 ? std::optional<uint64_t>(L << R) : std::nullopt;
    case BO_Shr:
      return R < 64 ? std::optional<uint64_t>(L >> R) : std::nullopt;
    case BO_And:
      return L & R;
    case BO_Or:
      return L | R;
    default:
      return std::nullopt;
    }
  }

  /// The values of a local variable: the union of what is written to it.
  template <typename T, typename F>
  std::optional<T> throughVariable(const VarDecl *VD, F Eval) {
    if (!Writes.known(VD) || !Visiting.insert(VD).second)
      return std::nullopt;
    std::optional<T> Out = T();
    for (const Expr *V : Writes.values(VD)) {
      std::optional<T> One = Eval(V);
      if (!One || Out->size() + One->size() > Limit) {
        Out.reset();
        break;
      }
      Out->append(One->begin(), One->end());
    }
    Visiting.erase(VD);
    if (Out && Out->empty())
      return std::nullopt;
    return Out;
  }

  std::optional<Blocks> blocksOf(const Expr *E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (E->getType()->isIntegralOrEnumerationType()) {
      std::optional<Ints> V = ints(E);
      if (!V)
        return std::nullopt;
      Blocks Out;
      for (uint64_t X : *V)
        Out.push_back({X, 1, 1});
      return Out;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return blocks(Cast->getSubExpr());
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      std::optional<Blocks> A = blocks(CO->getTrueExpr()),
                            B = blocks(CO->getFalseExpr());
      if (!A || !B || A->size() + B->size() > Limit)
        return std::nullopt;
      A->append(B->begin(), B->end());
      return A;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() == 1)
        return blocks(CE->getArg(0));
      if (CE->getNumArgs() != 3 || !Ctor->getParent()->getIdentifier() ||
          Ctor->getParent()->getName() != "dim3")
        return std::nullopt;
      std::optional<Ints> X = ints(CE->getArg(0)), Y = ints(CE->getArg(1)),
                          Z = ints(CE->getArg(2));
      if (!X || !Y || !Z || X->size() * Y->size() * Z->size() > Limit)
        return std::nullopt;
      Blocks Out;
      for (uint64_t A : *X)
        for (uint64_t B : *Y)
          for (uint64_t C : *Z)
            Out.push_back({A, B, C});
      return Out;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return throughVariable<Blocks>(
            VD, [&](const Expr *V) { return blocks(V); });
    return std::nullopt;
  }

  const LocalWrites &Writes;
  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Visiting;
  unsigned Depth = 0;
};

/// Why a block of \p B threads runs differently on whole 64-lane
/// wavefronts than on 32-lane warps, or an empty string when it does not.
std::string blockDiffers(const BlockDims &B) {
  uint64_t N = B.X * B.Y * B.Z;
  std::string Shape = std::to_string(B.X);
  if (B.Y != 1 || B.Z != 1)
    Shape += " x " + std::to_string(B.Y);
  if (B.Z != 1)
    Shape += " x " + std::to_string(B.Z);
  if (N == 0)
    return ""; // no launch
  if (N % 64 != 0)
    return "a block of " + Shape +
           " threads (a partial last 64-lane wavefront)";
  if (N < 128)
    return "a block of " + Shape +
           " threads (two 32-lane warps, one 64-lane wavefront)";
  if ((B.Y != 1 || B.Z != 1) && B.X % 32 == 0 && B.X % 64 != 0)
    return "a block of " + Shape +
           " threads (rows of whole 32-lane warps, not of whole 64-lane "
           "wavefronts)";
  return "";
}

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
    LaunchFact L{Launch, Kernel, Scan.Found};
    checkBlock(L);
    Found.push_back(std::move(L));
    return true;
  }

  std::vector<LaunchFact> Found;

private:
  /// A block that whole wavefronts run differently from 32-lane warps.
  void checkBlock(LaunchFact &L) {
    const CallExpr *Config = L.Launch->getConfig();
    // A template's instantiations are visited: each knows its block.
    if (!Config || Config->getNumArgs() < 2 || Current->isDependentContext())
      return;
    LocalWrites Writes(Current);
    BlockEval Eval(Writes, Ctx);
    std::optional<BlockEval::Blocks> Blocks = Eval.blocks(Config->getArg(1));
    if (!Blocks) {
      L.UnknownBlock = true;
      return;
    }
    for (const BlockDims &B : *Blocks)
      if (std::string Why = blockDiffers(B); !Why.empty()) {
        L.Block = {Config->getArg(1)->getBeginLoc(), std::move(Why)};
        return;
      }
  }

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

namespace {

/// `X.warpSize` or `X->warpSize` of a cudaDeviceProp.
bool isPropWarpSize(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME)
    return false;
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const RecordDecl *RD = FD ? FD->getParent() : nullptr;
  return FD && FD->getIdentifier() && FD->getName() == "warpSize" && RD &&
         RD->getIdentifier() && RD->getName() == "cudaDeviceProp";
}

/// The variable `cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev)`
/// fills, or null.
const VarDecl *attributeTarget(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      Callee->getName() != "cudaDeviceGetAttribute" || CE->getNumArgs() < 2)
    return nullptr;
  const auto *Attr =
      dyn_cast<DeclRefExpr>(CE->getArg(1)->IgnoreParenImpCasts());
  if (!Attr || !Attr->getDecl()->getIdentifier() ||
      Attr->getDecl()->getName() != "cudaDevAttrWarpSize")
    return nullptr;
  const auto *Addr =
      dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenImpCasts());
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParens());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Finds the reads of the device's warp size in a body, and whether each
/// is only printed.
class WarpSizeReadFinder {
public:
  WarpSizeReadFinder(const Stmt *Body) {
    collectTargets(Body);
    walk(Body);
  }
  std::vector<HostWarpSizeRead> Reads;
  llvm::SmallPtrSet<const VarDecl *, 2> Targets;

private:
  void collectTargets(const Stmt *S) {
    if (!S)
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const VarDecl *VD = attributeTarget(CE))
        Targets.insert(VD);
    for (const Stmt *Child : S->children())
      collectTargets(Child);
  }

  /// The value at Stack.back() only goes into a print: a variadic call's
  /// argument or an `operator<<`'s, through casts and parentheses.
  bool printed() const {
    for (size_t I = Stack.size() - 1; I-- > 0;) {
      const Stmt *P = Stack[I];
      if (isa<ParenExpr, ImplicitCastExpr>(P))
        continue;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P))
        return Op->getOperator() == OO_LessLess;
      if (const auto *CE = dyn_cast<CallExpr>(P)) {
        const FunctionDecl *Callee = CE->getDirectCallee();
        return Callee && Callee->isVariadic();
      }
      return false;
    }
    return false;
  }

  void walk(const Stmt *S) {
    if (!S)
      return;
    Stack.push_back(S);
    const auto *E = dyn_cast<Expr>(S);
    if (E && isPropWarpSize(E)) {
      Reads.push_back({E, {}, printed()});
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      const auto *Cast =
          Stack.size() > 1 ? dyn_cast<ImplicitCastExpr>(Stack[Stack.size() - 2])
                           : nullptr;
      if (VD && Targets.count(VD) && Cast &&
          Cast->getCastKind() == CK_LValueToRValue)
        Reads.push_back({DRE, {}, printed()});
    }
    for (const Stmt *Child : S->children())
      walk(Child);
    Stack.pop_back();
  }

  std::vector<const Stmt *> Stack;
};

/// Marks the reads of \p Reads that \p S computes from, through the local
/// variables of the function (\p Writes), as reaching \p Launch.
void reachReads(const Stmt *S, const CUDAKernelCallExpr *Launch,
                const LocalWrites &Writes,
                llvm::DenseMap<const Expr *, HostWarpSizeRead *> &Reads,
                llvm::SmallPtrSetImpl<const VarDecl *> &Seen) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    if (auto It = Reads.find(E); It != Reads.end()) {
      auto &L = It->second->Launches;
      if (llvm::find(L, Launch) == L.end())
        L.push_back(Launch);
      return;
    }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isLocalVarDecl() && Seen.insert(VD).second)
      for (const Expr *V : Writes.values(VD))
        reachReads(V, Launch, Writes, Reads, Seen);
  for (const Stmt *Child : S->children())
    reachReads(Child, Launch, Writes, Reads, Seen);
}

/// The launches in a body.
void findLaunches(const Stmt *S, std::vector<const CUDAKernelCallExpr *> &Out) {
  if (!S)
    return;
  if (const auto *L = dyn_cast<CUDAKernelCallExpr>(S))
    Out.push_back(L);
  for (const Stmt *Child : S->children())
    findLaunches(Child, Out);
}

} // namespace

std::vector<HostWarpSizeRead> hostWarpSizeReads(const FunctionDecl *Fn,
                                                ASTContext &Ctx) {
  if (!Ctx.getLangOpts().CUDA || !Fn->getBody())
    return {};
  WarpSizeReadFinder Finder(Fn->getBody());
  std::vector<HostWarpSizeRead> Reads = std::move(Finder.Reads);
  if (Reads.empty())
    return Reads;
  llvm::DenseMap<const Expr *, HostWarpSizeRead *> ByExpr;
  for (HostWarpSizeRead &R : Reads)
    ByExpr[R.Read] = &R;
  LocalWrites Writes(Fn);
  std::vector<const CUDAKernelCallExpr *> Launches;
  findLaunches(Fn->getBody(), Launches);
  for (const CUDAKernelCallExpr *L : Launches) {
    llvm::SmallPtrSet<const VarDecl *, 8> Seen;
    // The variable cudaDeviceGetAttribute fills is reached at its reads.
    for (const VarDecl *VD : Finder.Targets)
      Seen.insert(VD);
    if (L->getConfig())
      reachReads(L->getConfig(), L, Writes, ByExpr, Seen);
    for (const Expr *A : L->arguments())
      reachReads(A, L, Writes, ByExpr, Seen);
  }
  return Reads;
}

} // namespace rewrite
} // namespace hpp
