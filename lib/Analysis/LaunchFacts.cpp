//===- LaunchFacts.cpp - 32-lane facts of a kernel's launches -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// launchFacts() (Analysis/LaunchFacts.h): the 32-lane facts of each
/// launch's host values, and its block size where the tool evaluates it.
/// The reads of the device's warp size are HostWarpSizeReads.cpp's.
///
//===----------------------------------------------------------------------===//

#include "Analysis/LaunchFacts.h"
#include "Analysis/HostValues.h"
#include "Framework/DynamicASTVisitor.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <deque>
#include <optional>
#include <type_traits>

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

/// One launch's block, x by y by z threads.
struct BlockDims {
  uint64_t X = 1, Y = 1, Z = 1;
};

/// Where a value that comes from a caller is written: the argument of the
/// outermost call, and the functions it is passed to, outermost first.
struct CallOrigin {
  const Expr *Arg;
  llvm::SmallVector<const FunctionDecl *, 2> Through;
};

/// The values an expression may take that the tool sees, each with where
/// it comes from when that is a caller.
template <typename T> struct SeenValues {
  struct One {
    T V;
    const CallOrigin *From = nullptr;
  };
  /// At most this many values; more make the set partial.
  static constexpr size_t Limit = 16;
  llvm::SmallVector<One, 4> Known;
  /// The expression may take values that are not in Known.
  bool Partial = false;
  /// Why, where a call the tool does not see may pass them; invalid
  /// otherwise (a value read at run time).
  WidthFact Why;

  static SeenValues unknown() {
    SeenValues Out;
    Out.Partial = true;
    return Out;
  }
  static SeenValues of(T V) {
    SeenValues Out;
    Out.Known.push_back({V, nullptr});
    return Out;
  }
  void add(One V) {
    if (Known.size() < Limit)
      Known.push_back(V);
    else
      Partial = true;
  }
  /// Takes \p Other's partiality (and its reason, if this has none).
  template <typename U> void notePartial(const SeenValues<U> &Other) {
    Partial |= Other.Partial;
    if (Why.Loc.isInvalid())
      Why = Other.Why;
  }
  /// Adds \p Other's values.
  void join(const SeenValues &Other) {
    for (const One &V : Other.Known)
      add(V);
    notePartial(Other);
  }
};

/// The values an integer or dim3 expression of host code may take:
/// constants (literals, macros, constexpr, template arguments), local
/// variables through every value written to them, parameters through
/// every call's argument (HostValues.h), every arm of a conditional,
/// arithmetic of such values. Where some are not known (a value read at run
/// time, a call the tool does not see), the others are.
class BlockEval {
public:
  BlockEval(HostValues &Host, ASTContext &Ctx) : Host(Host), Ctx(Ctx) {}

  using Ints = SeenValues<uint64_t>;
  using Blocks = SeenValues<BlockDims>;

  /// The fact of a block \p Why that comes from a caller (\p O): at the
  /// argument, naming the calls.
  WidthFact passed(std::string Why, const CallOrigin &O) const {
    const HostCalls &Calls = Host.calls();
    const auto *DA = dyn_cast<CXXDefaultArgExpr>(O.Arg);
    WidthFact F{DA ? DA->getExpr()->getBeginLoc() : O.Arg->getBeginLoc(),
                std::move(Why) + " passed to " + Calls.name(O.Through[0]) +
                    (DA ? " as its default argument" : "") + " here"};
    for (size_t I = 1; I < O.Through.size(); ++I)
      F.What +=
          (I == 1 ? " and on to " : ", then to ") + Calls.name(O.Through[I]);
    return F;
  }

  Ints ints(const Expr *E) {
    if (!E || E->isValueDependent() || E->isTypeDependent() || Depth >= 64)
      return Ints::unknown();
    ++Depth;
    Ints R = intsOf(E->IgnoreParenCasts());
    --Depth;
    R.Partial |= R.Known.empty();
    return R;
  }

  Blocks blocks(const Expr *E) {
    if (!E || E->isValueDependent() || E->isTypeDependent() || Depth >= 64)
      return Blocks::unknown();
    ++Depth;
    Blocks R = blocksOf(E);
    --Depth;
    R.Partial |= R.Known.empty();
    return R;
  }

private:
  Ints intsOf(const Expr *E) {
    Expr::EvalResult R;
    if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx))
      return Ints::of(
          R.Val.getInt().getExtValue() < 0 ? 0 : R.Val.getInt().getZExtValue());
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
      return ints(DA->getExpr());
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      Ints A = ints(CO->getTrueExpr());
      A.join(ints(CO->getFalseExpr()));
      return A;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma)
        return ints(BO->getRHS());
      Ints A = ints(BO->getLHS()), B = ints(BO->getRHS()), Out;
      Out.notePartial(A);
      Out.notePartial(B);
      for (const Ints::One &L : A.Known)
        for (const Ints::One &Rt : B.Known) {
          if (std::optional<uint64_t> V = apply(BO->getOpcode(), L.V, Rt.V))
            Out.add({*V, L.From ? L.From : Rt.From});
          else
            Out.Partial = true;
        }
      return Out;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return throughVariable<uint64_t>(
            VD, [&](const Expr *V) { return ints(V); });
    return Ints::unknown();
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

  /// The values of a local variable or a parameter: the union of what its
  /// function writes to it and, for a parameter, of its calls' arguments.
  template <typename T, typename F>
  SeenValues<T> throughVariable(const VarDecl *VD, F Eval) {
    // Each variable once for the translation unit: a value that comes
    // through a cycle (recursion, `v = v * 2`) is not known.
    auto &Cache = cache<T>();
    if (auto It = Cache.find(VD); It != Cache.end())
      return It->second;
    const LocalWrites *Writes = Host.writes(VD);
    if (!Writes || !Writes->known(VD) || !Visiting.insert(VD).second)
      return SeenValues<T>::unknown();
    SeenValues<T> Out;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD))
      fromCallers(P, Out, Eval);
    for (const Expr *V : Writes->values(VD))
      Out.join(Eval(V));
    Visiting.erase(VD);
    Cache[VD] = Out;
    return Out;
  }

  template <typename T>
  llvm::DenseMap<const VarDecl *, SeenValues<T>> &cache() {
    if constexpr (std::is_same_v<T, uint64_t>)
      return IntCache;
    else
      return BlockCache;
  }

  /// Adds to \p Out the values of parameter \p P at the calls of its
  /// function, each noted as passed through it; a call the tool does not
  /// see makes \p Out partial, with the reason.
  template <typename T, typename F>
  void fromCallers(const ParmVarDecl *P, SeenValues<T> &Out, F Eval) {
    const auto *Fn = dyn_cast<FunctionDecl>(P->getDeclContext());
    if (!Fn || Fn->isMain()) {
      Out.Partial = true;
      return;
    }
    const HostCalls &Calls = Host.calls();
    if (WidthFact Why = Calls.unseen(Fn); Why.Loc.isValid()) {
      Out.Partial = true;
      Out.Why = std::move(Why);
    }
    for (const HostCall &C : Calls.of(Fn)) {
      if (C.InPattern)
        continue;
      const Expr *Arg = C.argument(P->getFunctionScopeIndex());
      if (!Arg) {
        Out.Partial = true;
        continue;
      }
      SeenValues<T> One = Eval(Arg);
      for (typename SeenValues<T>::One &V : One.Known)
        V.From = through(V.From, Arg, Fn);
      Out.join(One);
    }
  }

  /// \p From (or, for a value written at the call, \p Arg) passed on to
  /// \p Fn.
  const CallOrigin *through(const CallOrigin *From, const Expr *Arg,
                            const FunctionDecl *Fn) {
    Origins.push_back(From ? *From : CallOrigin{Arg, {}});
    Origins.back().Through.push_back(Fn);
    return &Origins.back();
  }

  Blocks blocksOf(const Expr *E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (E->getType()->isIntegralOrEnumerationType()) {
      Ints V = ints(E);
      Blocks Out;
      Out.notePartial(V);
      for (const Ints::One &X : V.Known)
        Out.add({{X.V, 1, 1}, X.From});
      return Out;
    }
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
      return blocks(DA->getExpr());
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return blocks(Cast->getSubExpr());
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      Blocks A = blocks(CO->getTrueExpr());
      A.join(blocks(CO->getFalseExpr()));
      return A;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() == 1)
        return blocks(CE->getArg(0));
      if (CE->getNumArgs() != 3 || !Ctor->getParent()->getIdentifier() ||
          Ctor->getParent()->getName() != "dim3")
        return Blocks::unknown();
      Ints X = ints(CE->getArg(0)), Y = ints(CE->getArg(1)),
           Z = ints(CE->getArg(2));
      Blocks Out;
      for (const Ints *Part : {&X, &Y, &Z})
        Out.notePartial(*Part);
      for (const Ints::One &A : X.Known)
        for (const Ints::One &B : Y.Known)
          for (const Ints::One &C : Z.Known)
            Out.add({{A.V, B.V, C.V},
                     A.From   ? A.From
                     : B.From ? B.From
                              : C.From});
      return Out;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return throughVariable<BlockDims>(
            VD, [&](const Expr *V) { return blocks(V); });
    return Blocks::unknown();
  }

  HostValues &Host;
  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Visiting;
  llvm::DenseMap<const VarDecl *, Ints> IntCache;
  llvm::DenseMap<const VarDecl *, Blocks> BlockCache;
  std::deque<CallOrigin> Origins;
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
    BlockEval::Blocks Blocks = Eval.blocks(Config->getArg(1));
    for (const BlockEval::Blocks::One &B : Blocks.Known)
      if (std::string Why = blockDiffers(B.V); !Why.empty()) {
        L.Block = B.From ? Eval.passed(std::move(Why), *B.From)
                         : WidthFact{Config->getArg(1)->getBeginLoc(),
                                     std::move(Why)};
        return;
      }
    L.UnknownBlock = Blocks.Partial;
    L.UnknownWhy = Blocks.Why;
  }

  ASTContext &Ctx;
  HostValues Host{Ctx};
  BlockEval Eval{Host, Ctx};
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
