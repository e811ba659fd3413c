//===- HostWarpSizeReads.cpp - The device's warp size read in host code ---===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hostWarpSizeReads() (Analysis/LaunchFacts.h): the reads of the device's
/// warp size in a host function (`prop.warpSize`, a variable
/// cudaDeviceGetAttribute fills with cudaDevAttrWarpSize), and the launches
/// whose configuration or arguments are computed from each, for
/// hpp-host-warp-size.
///
//===----------------------------------------------------------------------===//

#include "Analysis/HostValues.h"
#include "Analysis/LaunchFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

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

/// The reads of the device's warp size that a value is computed from:
/// through local variables (their initialisers and assignments) and
/// parameters (the arguments of their function's calls, transitively).
class ReadReach {
public:
  ReadReach(HostValues &Host,
            const llvm::DenseMap<const Expr *, HostWarpSizeRead *> &Reads,
            const llvm::SmallPtrSetImpl<const VarDecl *> &Targets)
      : Host(Host), Reads(Reads), Targets(Targets) {}

  /// Starts a sink (a launch, a call): \p Mark is called on each read its
  /// values reach().
  void start(llvm::function_ref<void(HostWarpSizeRead &)> Mark) {
    this->Mark = Mark;
    Seen.clear();
    // The variable cudaDeviceGetAttribute fills is reached at its reads.
    for (const VarDecl *VD : Targets)
      Seen.insert(VD);
  }

  void reach(const Stmt *S) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      if (auto It = Reads.find(E); It != Reads.end()) {
        Mark(*It->second);
        return;
      }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && Seen.insert(VD).second) {
        if (const LocalWrites *Writes = Host.writes(VD))
          for (const Expr *V : Writes->values(VD))
            reach(V);
        if (const auto *P = dyn_cast<ParmVarDecl>(VD))
          if (const auto *Fn = dyn_cast<FunctionDecl>(P->getDeclContext()))
            for (const HostCall &C : Host.calls().of(Fn))
              reach(C.argument(P->getFunctionScopeIndex()));
      }
    for (const Stmt *Child : S->children())
      reach(Child);
  }

private:
  HostValues &Host;
  const llvm::DenseMap<const Expr *, HostWarpSizeRead *> &Reads;
  const llvm::SmallPtrSetImpl<const VarDecl *> &Targets;
  llvm::function_ref<void(HostWarpSizeRead &)> Mark;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
};

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
  HostValues Host(Ctx);
  ReadReach Reach(Host, ByExpr, Finder.Targets);
  // Every launch of the translation unit: the value may be passed to the
  // function that launches.
  for (const CUDAKernelCallExpr *L : Host.calls().launches()) {
    Reach.start([&](HostWarpSizeRead &R) {
      if (llvm::find(R.Launches, L) == R.Launches.end())
        R.Launches.push_back(L);
    });
    Reach.reach(L->getConfig());
    for (const Expr *A : L->arguments())
      Reach.reach(A);
  }
  for (const CallExpr *C : Host.calls().unfollowed()) {
    Reach.start([&](HostWarpSizeRead &R) {
      if (!R.Unfollowed)
        R.Unfollowed = C;
    });
    for (const Expr *A : C->arguments())
      Reach.reach(A);
  }
  return Reads;
}

} // namespace rewrite
} // namespace hpp
