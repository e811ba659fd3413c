//===- WidthModel.cpp - One warp-width decision per kernel ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/WidthModel.h"
#include "Analysis/DeviceCallGraph.h"
#include "Analysis/LaneMask.h"
#include "Analysis/LaunchFacts.h"
#include "Dialect/CudaCode.h"
#include "Dialect/DeviceCode.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// The declaration that stands for \p FD in the model: its template
/// pattern, or its definition (as DeviceCallGraph edits them).
const FunctionDecl *normalized(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  if (const FunctionDecl *Def = FD->getDefinition())
    return Def;
  return FD;
}

/// The function whose body lexically encloses the lambda call operator
/// \p MD, or null.
const FunctionDecl *enclosingFunction(const CXXMethodDecl *MD) {
  if (!MD->getParent()->isLambda())
    return nullptr;
  for (const DeclContext *DC = MD->getParent()->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC))
      return FD;
  return nullptr;
}

} // namespace

unsigned WidthModel::find(unsigned X) {
  while (Parent[X] != X)
    X = Parent[X] = Parent[Parent[X]];
  return X;
}

WidthModel::WidthModel(ASTContext &Ctx, const DeviceCallGraph &Graph,
                       const RewriteOptions *Program)
    : Ctx(Ctx) {
  llvm::StringRef ExternalNarrowing, ExternalAsWritten;
  const std::map<std::string, SharedWidthFacts> *ExternalWidths = nullptr;
  if (Program) {
    ExternalNarrowing = Program->ExternalNarrowing;
    ExternalAsWritten = Program->ExternalAsWritten;
    if (!Program->ExternalWidths.empty())
      ExternalWidths = &Program->ExternalWidths;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  // The functions of device code, one node each.
  std::vector<const FunctionDecl *> Units;
  auto Node = [&](const FunctionDecl *FD) {
    FD = normalized(FD);
    auto [It, New] = Index.try_emplace(FD, Units.size());
    if (New) {
      Units.push_back(FD);
      Parent.push_back(It->second);
    }
    return It->second;
  };
  for (const FunctionDecl *FD : Graph.functions())
    Node(FD);
  // Calls (caller, callee) and nested lambdas (lambda, enclosing function).
  std::vector<std::pair<unsigned, unsigned>> Calls, Nested;
  for (const DeviceCallGraph::Call &C : Graph.calls())
    if (C.Caller && Index.count(normalized(C.Callee)))
      Calls.push_back({Node(C.Caller), Node(C.Callee)});
  for (size_t I = 0; I < Units.size(); ++I)
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Units[I]))
      if (const FunctionDecl *Outer = enclosingFunction(MD))
        if (Index.count(normalized(Outer)))
          Nested.push_back({unsigned(I), Node(Outer)});

  // Facts of each body, and the body ranges for lookups (by unit until the
  // components are known).
  std::vector<BodyWidthFacts> Facts(Units.size());
  LaneMaskFlow Masks;
  for (unsigned I = 0; I < Units.size(); ++I) {
    const FunctionDecl *FD = Units[I];
    const Stmt *Body = FD->getBody();
    if (!Body)
      continue;
    Facts[I] = scanWidthFacts(Body, Ctx);
    // Default arguments are evaluated in the callers, which a function
    // with warp code joins: `int width = warpSize` is its fact too.
    for (const ParmVarDecl *P : FD->parameters()) {
      if (!P->hasDefaultArg() || P->hasUnparsedDefaultArg() ||
          P->hasUninstantiatedDefaultArg() || !P->getDefaultArg() ||
          SM.isInSystemHeader(SM.getExpansionLoc(P->getLocation())))
        continue;
      BodyWidthFacts D = scanWidthFacts(P->getDefaultArg(), Ctx);
      BodyWidthFacts &F = Facts[I];
      if (F.RealWidth.Loc.isInvalid())
        F.RealWidth = D.RealWidth;
      if (F.ThirtyTwo.Loc.isInvalid())
        F.ThirtyTwo = D.ThirtyTwo;
      F.WideMask |= D.WideMask;
      F.WarpCode |= D.WarpCode;
    }
    // A function's parameters too: their default arguments are evaluated
    // in its callers, which a function with warp code joins.
    const auto *Method = dyn_cast<CXXMethodDecl>(FD);
    bool InLambda = Method && Method->getParent()->isLambda();
    Bodies.push_back(
        {SM.getExpansionLoc(InLambda ? Body->getBeginLoc() : FD->getBeginLoc()),
         SM.getExpansionLoc(Body->getEndLoc()), I});
    // The lane-mask flow starts at the outermost roots of the rewritten
    // files, as hpp-lane-mask's does.
    if (!isWrittenInRewrittenFile(SM, SM.getExpansionLoc(FD->getLocation())))
      continue;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    bool Lambda = MD && MD->getParent()->isLambda();
    if (!Lambda && (getDeviceAnnotation(FD) || getCudaDeviceAttr(FD)))
      Masks.addRoot(FD, Body, /*EditableParameters=*/true);
    if (Lambda) {
      const FunctionDecl *Outer = enclosingFunction(MD);
      if (!Outer || !Index.count(normalized(Outer)))
        Masks.addRoot(FD, Body, /*EditableParameters=*/false);
    }
  }

  // Host code that sizes a kernel's launch from 32-lane warps: a 32-lane
  // fact of the kernel (LaunchFacts.h). Blocks that whole wavefronts run
  // differently from 32-lane warps, and launches whose block the tool cannot
  // evaluate, by kernel: they count once the components are known.
  std::vector<std::pair<unsigned, SourceLocation>> UnknownBlocks;
  std::vector<std::pair<unsigned, WidthFact>> BlockFacts;
  for (const LaunchFact &L : launchFacts(Ctx)) {
    auto It = Index.find(normalized(L.Kernel));
    if (It == Index.end())
      continue;
    if (L.UnknownBlock)
      UnknownBlocks.push_back(
          {It->second, SM.getExpansionLoc(L.Launch->getBeginLoc())});
    if (L.Block.Loc.isValid())
      BlockFacts.push_back(
          {It->second,
           {L.Block.Loc, L.Block.What + " in the host code that launches it"}});
    if (L.Fact.Loc.isInvalid() || Facts[It->second].ThirtyTwo.Loc.isValid())
      continue;
    Facts[It->second].ThirtyTwo = {
        L.Fact.Loc, L.Fact.What + " in the host code that launches it"};
  }

  // Masks the tool cannot widen keep a component on 32-lane warps; a unit
  // whose code holds a mask is warp code.
  Masks.solve(Ctx);
  std::vector<bool> HoldsMask(Units.size());
  std::vector<std::pair<unsigned, WidthFact>> MaskFacts;
  auto MaskCode = [&](SourceLocation Loc) {
    if (const BodyRange *B = bodyAt(Loc))
      HoldsMask[B->Component] = true;
  };
  auto MaskFact = [&](SourceLocation Loc, std::string What) {
    if (const BodyRange *B = bodyAt(Loc))
      MaskFacts.push_back({B->Component, {Loc, std::move(What)}});
  };
  for (const MaskEscape &E : Masks.escapes())
    MaskFact(E.At->getBeginLoc(),
             "a lane mask stored where its type cannot be widened");
  for (const VarDecl *VD : Masks.maskVariables()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext()))
      if (auto It = Index.find(normalized(FD)); It != Index.end())
        HoldsMask[It->second] = true;
    if (!Masks.isLocal(VD) || !isNarrowInteger(VD->getType(), Ctx))
      continue;
    if (VD->isConstexpr() || VD->isStaticLocal())
      MaskFact(VD->getLocation(),
               "the constant lane mask '" + VD->getName().str() + "'");
    SourceRange Spec = typeSpecifierRange(VD);
    if (Spec.isValid())
      for (const VarDecl *Other : Masks.sharingTypeSpecifier(Spec.getBegin()))
        if (!Masks.isMaskVariable(Other))
          MaskFact(VD->getLocation(), "the lane mask '" + VD->getName().str() +
                                          "', declared together with '" +
                                          Other->getName().str() + "'");
  }
  for (const Expr *Lit : Masks.maskLiterals()) {
    MaskCode(Lit->getBeginLoc());
    if (classifyMaskLiteral(Lit, Ctx) == MaskLiteral::Partial &&
        Masks.isWholeMask(Lit))
      MaskFact(Lit->getBeginLoc(), "a lane mask naming part of a 32-lane warp");
  }
  for (const CallExpr *CE : Masks.bitCalls())
    MaskCode(CE->getBeginLoc());
  // A lane mask from a helper combined with a mask (`b & lanesBelow(l)`).
  for (unsigned I = 0; I < Units.size(); ++I)
    if (const Stmt *Body = Units[I]->getBody())
      for (const CallExpr *Helper : maskHelperCalls(Body, Masks, Ctx))
        MaskFact(Helper->getBeginLoc(),
                 "a lane mask computed by '" +
                     Helper->getDirectCallee()->getNameAsString() +
                     "', which returns it as 32 bits");

  // A function whose code has nothing of the width in it, and whose
  // callees have none, is rewritten the same for every caller: it does not
  // join its callers (two kernels that share `loadOr` decide apart).
  std::vector<bool> Warp(Units.size());
  for (unsigned I = 0; I < Units.size(); ++I) {
    const BodyWidthFacts &F = Facts[I];
    Warp[I] = F.WarpCode || F.WideMask || F.RealWidth.Loc.isValid() ||
              F.ThirtyTwo.Loc.isValid() || HoldsMask[I];
  }
  for (const auto &[Unit, Fact] : MaskFacts)
    Warp[Unit] = true;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Caller, Callee] : Calls)
      if (Warp[Callee] && !Warp[Caller])
        Changed = Warp[Caller] = true;
    for (const auto &[Lambda, Outer] : Nested)
      if (Warp[Lambda] && !Warp[Outer])
        Changed = Warp[Outer] = true;
  }
  auto Join = [&](unsigned A, unsigned B) { Parent[find(A)] = find(B); };
  std::vector<bool> Called(Units.size());
  for (const auto &[Caller, Callee] : Calls) {
    Called[Callee] = true;
    if (Warp[Callee])
      Join(Caller, Callee);
  }
  // A lambda nested in device code is part of it.
  for (const auto &[Lambda, Outer] : Nested) {
    Called[Lambda] = true;
    Join(Lambda, Outer);
  }

  // Components, in discovery order; each takes the first facts of its
  // units, in that order, then the first mask fact.
  llvm::DenseMap<unsigned, unsigned> ComponentOf;
  UnitComponent.resize(Units.size());
  for (unsigned I = 0; I < Units.size(); ++I) {
    auto [It, New] = ComponentOf.try_emplace(find(I), Decisions.size());
    if (New)
      Decisions.emplace_back();
    UnitComponent[I] = It->second;
    WidthDecision &D = Decisions[It->second];
    if (D.RealWidth.Loc.isInvalid())
      D.RealWidth = Facts[I].RealWidth;
    if (D.ThirtyTwo.Loc.isInvalid())
      D.ThirtyTwo = Facts[I].ThirtyTwo;
    D.WideMask |= Facts[I].WideMask;
  }
  // Each root's first real-width use, in the code it reaches.
  std::vector<std::vector<unsigned>> Reaches(Units.size());
  for (const auto &[Caller, Callee] : Calls)
    Reaches[Caller].push_back(Callee);
  for (const auto &[Lambda, Outer] : Nested)
    Reaches[Outer].push_back(Lambda);
  for (unsigned I = 0; I < Units.size(); ++I) {
    if (Called[I])
      continue;
    WidthFact Real;
    std::vector<bool> Seen(Units.size());
    std::vector<unsigned> Work{I};
    Seen[I] = true;
    while (!Work.empty() && Real.Loc.isInvalid()) {
      unsigned U = Work.back();
      Work.pop_back();
      Real = Facts[U].RealWidth;
      for (unsigned V : Reaches[U])
        if (!Seen[V]) {
          Seen[V] = true;
          Work.push_back(V);
        }
    }
    Decisions[UnitComponent[I]].Roots.push_back({Units[I], std::move(Real)});
  }
  for (auto &[Unit, Fact] : MaskFacts) {
    WidthDecision &D = Decisions[UnitComponent[Unit]];
    if (D.ThirtyTwo.Loc.isInvalid())
      D.ThirtyTwo = std::move(Fact);
  }
  // A launch's block matters only to a component that would run at the
  // device's width: one without warp code computes the same in any block
  // (and must not narrow the file's other kernels).
  for (auto &[Unit, Fact] : BlockFacts) {
    WidthDecision &D = Decisions[UnitComponent[Unit]];
    if (D.ThirtyTwo.Loc.isInvalid() && D.RealWidth.Loc.isValid())
      D.ThirtyTwo = std::move(Fact);
  }
  for (BodyRange &B : Bodies)
    B.Component = UnitComponent[B.Component];
  for (const auto &[Unit, Loc] : UnknownBlocks) {
    auto &List = Decisions[UnitComponent[Unit]].UnknownBlocks;
    if (llvm::find(List, Loc) == List.end())
      List.push_back(Loc);
  }

  // One component across the program's sources: the functions of project
  // headers that are warp code are named by their places, and take the
  // facts other sources' components found for them.
  auto Text = [&](const WidthFact &F) {
    return F.Loc.isValid() ? placeName(SM, F.Loc) + ": " + F.What
                           : std::string();
  };
  Shared.resize(Decisions.size());
  for (size_t C = 0; C < Decisions.size(); ++C)
    Shared[C] = {Text(Decisions[C].RealWidth), Text(Decisions[C].ThirtyTwo),
                 Decisions[C].WideMask};
  for (unsigned I = 0; I < Units.size(); ++I) {
    SourceLocation At = SM.getExpansionLoc(Units[I]->getLocation());
    if (!Warp[I] || !isWrittenInProjectHeader(SM, At))
      continue;
    std::string Place = placeName(SM, At);
    HeaderFunctions.push_back({Place, UnitComponent[I]});
    if (!ExternalWidths)
      continue;
    auto It = ExternalWidths->find(Place);
    if (It == ExternalWidths->end())
      continue;
    const SharedWidthFacts &E = It->second;
    WidthDecision &D = Decisions[UnitComponent[I]];
    std::string Name = "'" + Units[I]->getNameAsString() + "'";
    if (D.RealWidth.Loc.isInvalid() && !E.RealWidth.empty()) {
      D.RealWidthElsewhere = true;
      D.RealWidth = {At, Name +
                             ", which a kernel of another source of the "
                             "program shares, and that kernel uses the "
                             "whole wavefront (" +
                             E.RealWidth + ")"};
    }
    if (D.ThirtyTwo.Loc.isInvalid() && !E.ThirtyTwo.empty())
      D.ThirtyTwo = {At, Name +
                             ", which a kernel of another source of the "
                             "program shares, and that kernel assumes "
                             "32-lane warps (" +
                             E.ThirtyTwo + ")"};
    D.WideMask |= E.WideMask;
    D.Joined |= Shared[UnitComponent[I]].merge(E);
  }
  for (WidthDecision &D : Decisions) {
    D.Model = decideWarpModel(D.RealWidth.Loc.isValid(),
                              D.ThirtyTwo.Loc.isValid(), D.WideMask);
  }
  // What the warp is must be one thing per program: kernels exchange
  // per-warp data through memory (slots one kernel writes by `warpSize`,
  // the next reads by `>> 5`), which no analysis of one kernel sees. Once
  // a kernel keeps 32-lane warps because of a 32-lane fact, every kernel of
  // the file that uses the real width does too.
  const WidthDecision *Narrowing = nullptr;
  for (const WidthDecision &D : Decisions)
    if (D.Model == WarpModel::Logical32 && D.ThirtyTwo.Loc.isValid() &&
        (!Narrowing || SM.isBeforeInTranslationUnit(D.ThirtyTwo.Loc,
                                                    Narrowing->ThirtyTwo.Loc)))
      Narrowing = &D;
  if (Narrowing) {
    this->Narrowing = Narrowing->ThirtyTwo;
    WidthFact Why{Narrowing->ThirtyTwo.Loc,
                  "another kernel of this file keeps 32-lane warps (" +
                      Narrowing->ThirtyTwo.What + ")"};
    for (WidthDecision &D : Decisions)
      if (D.Model == WarpModel::Native) {
        D.Model = WarpModel::Logical32;
        D.ThirtyTwo = Why;
        D.ProgramNarrowed = true;
      }
  } else if (!ExternalNarrowing.empty()) {
    // The same across the program's sources (the tool's second pass): the
    // fact is in another file, so each component's note is at its own
    // first use of the real width.
    for (WidthDecision &D : Decisions)
      if (D.Model == WarpModel::Native) {
        D.Model = WarpModel::Logical32;
        D.ThirtyTwo = {D.RealWidth.Loc,
                       "a kernel of another source of the program keeps "
                       "32-lane warps (" +
                           ExternalNarrowing.str() + ")"};
        D.ProgramNarrowed = true;
      }
  }
  // A component that runs as written keeps the device's warp width: per-warp
  // data that a kernel narrowed by the program's rule exchanges with it
  // disagrees on a 64-lane wavefront. Which kernels exchange data no
  // analysis of one kernel sees, so each narrowed one says so.
  for (const WidthDecision &D : Decisions)
    if (D.Model == WarpModel::AsWritten && AsWritten.Loc.isInvalid())
      AsWritten = D.ThirtyTwo;
  if (AsWritten.Loc.isInvalid() && !ExternalAsWritten.empty())
    AsWritten.What = ExternalAsWritten.str();
  if (AsWritten.What.empty())
    return;
  for (WidthDecision &D : Decisions)
    if (D.ProgramNarrowed)
      D.BesideAsWritten = AsWritten;
}

const WidthModel::BodyRange *WidthModel::bodyAt(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  const BodyRange *Best = nullptr;
  unsigned BestSize = ~0u;
  for (const BodyRange &B : Bodies) {
    if (SM.getFileID(B.Begin) != SM.getFileID(Loc) ||
        !SM.isPointWithin(Loc, B.Begin, B.End))
      continue;
    unsigned Size = SM.getFileOffset(B.End) - SM.getFileOffset(B.Begin);
    if (Size < BestSize) {
      Best = &B;
      BestSize = Size;
    }
  }
  return Best;
}

const WidthDecision &WidthModel::at(SourceLocation Loc) const {
  const BodyRange *B = bodyAt(Loc);
  return B ? Decisions[B->Component] : None;
}

std::map<std::string, SharedWidthFacts> WidthModel::headerWidths() const {
  std::map<std::string, SharedWidthFacts> Out;
  for (const auto &[Place, Component] : HeaderFunctions) {
    Out[Place].merge(Shared[Component]);
    Out[Place].Component = Component;
  }
  return Out;
}

const WidthDecision &WidthModel::of(const FunctionDecl *FD) const {
  auto It = Index.find(normalized(FD));
  return It == Index.end() ? None : Decisions[UnitComponent[It->second]];
}

} // namespace rewrite
} // namespace hpp
