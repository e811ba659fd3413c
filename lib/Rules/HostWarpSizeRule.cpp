//===- HostWarpSizeRule.cpp - MVECTOR_SIZE / warpSize in host code --------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/HostWarpSizeRule.h"
#include "Analysis/DeviceCallGraph.h"
#include "Analysis/LaunchFacts.h"
#include "Analysis/WidthModel.h"
#include "Analysis/WidthRegions.h"
#include "Analysis/WidthUses.h"
#include "Dialect/CudaCode.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/DialectMatchers.h"
#include "Framework/RewriteScope.h"
#include "Rules/WidthDispatch.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

/// The width of a kernel that keeps 32-lane warps.
static constexpr llvm::StringLiteral LogicalWidth = "hpp::warp32::size";

namespace {
/// A variable or a member outside every function: its initialiser runs
/// before main (or in every constructor, for a member).
AST_MATCHER(DeclaratorDecl, isOutsideFunctions) {
  if (Node.getParentFunctionOrMethod())
    return false;
  if (const auto *VD = dyn_cast<VarDecl>(&Node))
    return !isa<ParmVarDecl>(VD) && VD->hasGlobalStorage() &&
           !VD->isTemplated() &&
           !isTemplateInstantiation(VD->getTemplateSpecializationKind());
  const auto *FD = dyn_cast<FieldDecl>(&Node);
  return FD && !FD->isTemplated();
}

/// A parameter with a default argument, of a host function (its default
/// argument is evaluated in the caller's host code, at run time).
AST_MATCHER(ParmVarDecl, isHostDefaultArgument) {
  if (!Node.hasDefaultArg() || Node.hasUninstantiatedDefaultArg() ||
      Node.hasUnparsedDefaultArg() || !Node.getDefaultArg())
    return false;
  const auto *Fn = dyn_cast<FunctionDecl>(Node.getDeclContext());
  if (!Fn || getDeviceAnnotation(Fn) || getCudaDeviceAttr(Fn) ||
      Fn->isTemplateInstantiation())
    return false;
  const auto *M = dyn_cast<CXXMethodDecl>(Fn);
  return !M || !M->getParent()->isLambda() ||
         !getDeviceAnnotation(M->getParent()->getLambdaCallOperator());
}
} // namespace

void HostWarpSizeRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isExpansionInRewrittenFile(), isDefinition(),
                                 unless(hasDeviceAnnotation()),
                                 unless(hasCudaDeviceAttr()),
                                 unless(isTemplateInstantiation()),
                                 unless(cxxMethodDecl(ofClass(isLambda()))))
                        .bind("fn"),
                    this);
  Finder.addMatcher(
      declaratorDecl(isExpansionInRewrittenFile(), isOutsideFunctions())
          .bind("global"),
      this);
  Finder.addMatcher(
      parmVarDecl(isExpansionInRewrittenFile(), isHostDefaultArgument())
          .bind("default"),
      this);
}

/// The width in the type or the initialiser of a variable at namespace or
/// class scope, or of a member: no function holds it, so there is no
/// statement to dispatch, a constant use would not compile on a GPU, and a
/// run-time one would query the device during static initialisation.
void HostWarpSizeRule::checkGlobal(const DeclaratorDecl *D, ASTContext &AST) {
  for (const WidthUse &U : findHostWidthUses(D, AST)) {
    if (U.Via)
      continue;
    error(U.Range.getBegin(),
          "the mvector width is a run-time value in host code (HIP has no "
          "compile-time wavefront size), so it cannot be used in the "
          "declaration of '" +
              D->getNameAsString() + "' outside a function");
    note(U.Range.getBegin(),
         "read it in a function (host code there gets the current device's "
         "width), pass it as a template argument of a call statement "
         "(`f<MVECTOR_SIZE>(args);`), or use MVECTOR_MAX / MVECTOR_MIN for "
         "storage bounds");
  }
}

/// The width in a host function's default argument: evaluated at each call,
/// in host code, so a run-time use is the current device's width; a use
/// that must be a constant cannot be one.
void HostWarpSizeRule::checkDefaultArgument(const ParmVarDecl *P,
                                            ASTContext &AST) {
  // Device code calls the function: the argument is device code too
  // (hpp-warp-size's).
  if (Ctx.deviceGraph().isImplicitDevice(
          cast<FunctionDecl>(P->getDeclContext())))
    return;
  for (const WidthUse &U : findHostWidthUses(P->getDefaultArg(), AST)) {
    if (U.Via) {
      reportThroughConstant(U);
      continue;
    }
    if (U.Context == WidthUse::RunTime) {
      Ctx.Edits.replace(U.Range, RunTimeWidth, Name);
      continue;
    }
    error(U.Range.getBegin(),
          "the mvector width is a run-time value in host code (HIP has no "
          "compile-time wavefront size), so it cannot be a constant in the "
          "default argument of '" +
              P->getNameAsString() + "'");
    note(U.Range.getBegin(), "use MVECTOR_MAX / MVECTOR_MIN for storage "
                             "bounds, or pass the width at the call");
  }
}

/// The launches in \p Body of kernels that keep 32-lane warps although
/// they read the width (WidthModel narrows them): the host part of each
/// launch (the range and init-captures) and the kernel's decision.
std::vector<HostWarpSizeRule::NarrowLaunch>
HostWarpSizeRule::narrowLaunches(const Stmt *Body, ASTContext &AST) {
  std::vector<NarrowLaunch> Out;
  auto Add = [&](const Expr *Site, const LambdaExpr *L) {
    const WidthDecision &D = Ctx.widthModel().of(L->getCallOperator());
    if (D.narrows() && L->getBody())
      Out.push_back(
          {SourceRange(Site->getBeginLoc(), L->getBody()->getBeginLoc()), &D});
  };
  for (const BoundNodes &M :
       match(findAll(parallelForBody("lambda")), *Body, AST))
    Add(M.getNodeAs<CallExpr>("call"), M.getNodeAs<LambdaExpr>("lambda"));
  // A Task's init-captures (its enqueue's range is not the kernel's).
  for (const BoundNodes &M : match(findAll(taskBody("lambda")), *Body, AST))
    Add(M.getNodeAs<Expr>("task"), M.getNodeAs<LambdaExpr>("lambda"));
  // A consumer's range and init-captures.
  for (const BoundNodes &M :
       match(findAll(consumerBody("consumer")), *Body, AST))
    Add(M.getNodeAs<Expr>("execute"), M.getNodeAs<LambdaExpr>("consumer"));
  return Out;
}

void HostWarpSizeRule::run(const MatchFinder::MatchResult &R) {
  if (const auto *D = R.Nodes.getNodeAs<DeclaratorDecl>("global")) {
    checkGlobal(D, *R.Context);
    return;
  }
  if (const auto *P = R.Nodes.getNodeAs<ParmVarDecl>("default")) {
    checkDefaultArgument(P, *R.Context);
    return;
  }
  const auto *Fn = R.Nodes.getNodeAs<FunctionDecl>("fn");
  // Device code calls it: its body is device code (hpp-warp-size's).
  if (Ctx.deviceGraph().isImplicitDevice(Fn))
    return;
  ASTContext &AST = *R.Context;
  const SourceManager &SM = AST.getSourceManager();
  checkDeviceWarpSize(Fn, AST);
  std::vector<WidthUse> Uses = findHostWidthUses(Fn->getBody(), AST);
  if (Uses.empty())
    return;

  std::vector<NarrowLaunch> Narrow = narrowLaunches(Fn->getBody(), AST);
  auto Within = [&](const WidthUse &U, SourceRange S) {
    return !SM.isBeforeInTranslationUnit(U.Range.getBegin(), S.getBegin()) &&
           SM.isBeforeInTranslationUnit(U.Range.getBegin(), S.getEnd());
  };
  auto NarrowAt = [&](const WidthUse &U) -> const NarrowLaunch * {
    for (const NarrowLaunch &N : Narrow)
      if (Within(U, N.HostPart))
        return &N;
    return nullptr;
  };

  // Statements that need the width as a constant run once per width.
  std::vector<WidthRegion> Regions = findWidthRegions(Fn, Uses, AST);
  auto RegionAt = [&](const WidthUse &U) -> const WidthRegion * {
    for (const WidthRegion &R : Regions)
      if (R.contains(SM.getExpansionLoc(U.Range.getBegin()), SM))
        return &R;
    return nullptr;
  };
  for (WidthRegion &R : Regions) {
    if (R.Problem.empty())
      findDependentNames(R, Uses, AST);
    dispatchRegion(R, SM);
  }

  // Group the uses by the call statement they dispatch.
  llvm::DenseMap<const Expr *, std::vector<const WidthUse *>> Dispatched;
  llvm::DenseMap<const Expr *, bool> NeedsBraces;
  for (const WidthUse &U : Uses)
    if (U.Context == WidthUse::DispatchArg && !RegionAt(U)) {
      Dispatched[U.Stmt];
      NeedsBraces[U.Stmt] = U.NeedsBraces;
    }
  auto InDispatch = [&](const WidthUse &U) -> const Expr * {
    for (auto &[Stmt, List] : Dispatched) {
      SourceRange S = Stmt->getSourceRange();
      if (!SM.isBeforeInTranslationUnit(U.Range.getBegin(), S.getBegin()) &&
          !SM.isBeforeInTranslationUnit(S.getEnd(), U.Range.getBegin()))
        return Stmt;
    }
    return nullptr;
  };

  for (const WidthUse &U : Uses) {
    if (U.InMacro) {
      reportInMacro(U, AST);
      continue;
    }
    if (const WidthRegion *R = RegionAt(U)) {
      // A region holds no kernel launch; a constant that holds the width
      // is one there.
      if (R->Problem.empty() && !U.Via)
        Ctx.Edits.replace(U.Range, regionWidth(*R), Name);
      continue;
    }
    // A use through a constant is recorded only where a constant is needed.
    if (U.Via) {
      reportThroughConstant(U);
      continue;
    }
    if (const Expr *Stmt = InDispatch(U)) {
      Dispatched[Stmt].push_back(&U);
      if (!NarrowAt(U))
        warnNarrowMismatch(U, Narrow, SM);
      continue;
    }
    if (U.Context == WidthUse::RunTime) {
      if (const NarrowLaunch *N = NarrowAt(U)) {
        // The launched kernel reads the width as 32: so does its launch.
        Ctx.Edits.replace(U.Range, LogicalWidth, Name);
        remark(U.Range.getBegin(),
               "the launched kernel keeps 32-lane warps, so the width in "
               "its launch is the logical warp's (32) on every target");
        noteThirtyTwo(*N->Kernel, SM);
        continue;
      }
      Ctx.Edits.replace(U.Range, RunTimeWidth, Name);
      warnNarrowMismatch(U, Narrow, SM);
      continue;
    }
    error(U.Range.getBegin(),
          "the mvector width is a run-time value in host code (HIP has no "
          "compile-time wavefront size), so it cannot be a constant here");
    note(U.Range.getBegin(),
         "pass it as an explicit template argument of a call statement "
         "(`f<MVECTOR_SIZE>(args);` becomes a 32/64 dispatch), or use "
         "MVECTOR_MAX / MVECTOR_MIN for storage bounds");
  }

  for (auto &[Call, List] : Dispatched) {
    WidthDispatch D =
        dispatchCallStatement(Call, NeedsBraces.lookup(Call), List, AST);
    if (!D.Problem.empty())
      error(Call->getBeginLoc(),
            "cannot dispatch on the mvector width" + D.Problem);
    else
      Ctx.Edits.replace(D.Range, D.Text, Name);
  }
}

/// Port mode: the device's warp size read in host code is 64 on a wave64
/// GPU, where a kernel that keeps 32-lane warps has warps of 32 (finding
/// 002 of warpgen --cuda: `threads / prop.warpSize` slots for a kernel
/// that writes one per 32 threads).
void HostWarpSizeRule::checkDeviceWarpSize(const FunctionDecl *Fn,
                                           ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  if (!Fn->getBody())
    return; // defaulted
  const WidthDecision *FileNarrow = nullptr;
  for (const WidthDecision &D : Ctx.widthModel().decisions())
    if (D.Model == WarpModel::Logical32 && !D.Roots.empty() &&
        (D.ThirtyTwo.Loc.isValid() || D.RealWidth.Loc.isValid())) {
      FileNarrow = &D;
      break;
    }
  // A launch outside \p Fn's body: the value is passed to its function.
  SourceRange Body(SM.getExpansionLoc(Fn->getBody()->getBeginLoc()),
                   SM.getExpansionLoc(Fn->getBody()->getEndLoc()));
  auto InFn = [&](const Stmt *S) {
    SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
    return !SM.isBeforeInTranslationUnit(L, Body.getBegin()) &&
           !SM.isBeforeInTranslationUnit(Body.getEnd(), L);
  };
  for (const HostWarpSizeRead &R : hostWarpSizeReads(Fn, AST)) {
    const FunctionDecl *Narrow = nullptr, *Wide = nullptr;
    const WidthDecision *K = nullptr;
    // The value also goes to a call whose launches the tool does not see.
    bool Unknown = R.Unfollowed;
    const CUDAKernelCallExpr *Elsewhere = nullptr;
    for (const CUDAKernelCallExpr *L : R.Launches) {
      if (!Elsewhere && !InFn(L))
        Elsewhere = L;
      const FunctionDecl *Kernel = L->getDirectCallee();
      if (!Kernel) {
        Unknown = true;
        continue;
      }
      const WidthDecision &D = Ctx.widthModel().of(Kernel);
      if (D.Model != WarpModel::Logical32)
        Wide = Wide ? Wide : Kernel;
      else if (!Narrow) {
        Narrow = Kernel;
        K = &D;
      }
    }
    SourceLocation At = SM.getExpansionLoc(R.Read->getBeginLoc());
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(R.Read->getSourceRange()), SM,
        AST.getLangOpts());
    if (Narrow && !Wide && !Unknown && Range.isValid()) {
      Ctx.Edits.replace(Range, LogicalWidth, Name);
      remark(At, "'" + Narrow->getNameAsString() +
                     "', whose launch this value sizes, keeps 32-lane warps "
                     "on every target, so the device's warp size here is "
                     "the logical warp's (32), as on NVIDIA");
      noteThirtyTwo(*K, SM);
      if (Elsewhere)
        note(SM.getExpansionLoc(Elsewhere->getBeginLoc()),
             "the value is passed to this launch through the parameters of "
             "the functions that launch");
      continue;
    }
    // Only kernels that run on whole wavefronts: the device's width is
    // theirs. A value only printed is no kernel's.
    if (!Narrow &&
        (R.Printed || !FileNarrow || (!R.Launches.empty() && !R.Unfollowed)))
      continue;
    if (!K)
      K = FileNarrow;
    warning(At, Narrow ? "this is the device's warp size (64 on a wave64 "
                         "GPU); it sizes a launch of '" +
                             Narrow->getNameAsString() +
                             "', which keeps 32-lane warps on every target, "
                             "and the tool cannot rewrite it for that kernel "
                             "alone"
                       : "this is the device's warp size (64 on a wave64 "
                         "GPU), but kernels of this file keep 32-lane warps "
                         "on every target (two per 64-lane wavefront), and "
                         "the tool cannot tell which kernel's launch this "
                         "value sizes");
    noteThirtyTwo(*K, SM);
    if (R.Unfollowed)
      note(SM.getExpansionLoc(R.Unfollowed->getBeginLoc()),
           "the value is passed to this call, whose callee the tool does not "
           "follow (through a pointer, virtual, or defined in another "
           "source): it may size other launches");
    note(At, "write 32 (hpp::warp32::size) where the value sizes a kernel "
             "that keeps 32-lane warps, as the device's warp size is on "
             "NVIDIA; keep the device's where it sizes a kernel that runs on "
             "whole wavefronts (docs/width-model.md)");
  }
}

/// Port mode: a kernel that runs on whole wavefronts computes what it does
/// on 32-lane warps only in blocks of whole wavefronts, at least two
/// (LaunchFacts.h); a launch whose block the tool cannot evaluate may not
/// be one.
void HostWarpSizeRule::onEndOfTranslationUnit(ASTContext &AST) {
  if (!AST.getLangOpts().CUDA)
    return;
  // Why each unknown block is, where it is a call the tool does not see:
  // the launches are evaluated again only when there is one to warn of.
  const SourceManager &SM = AST.getSourceManager();
  llvm::DenseMap<SourceLocation, WidthFact> Why;
  bool Evaluated = false;
  for (const WidthDecision &D : Ctx.widthModel().decisions()) {
    if (D.Model != WarpModel::Native)
      continue;
    if (!D.UnknownBlocks.empty() && !Evaluated) {
      Evaluated = true;
      for (const LaunchFact &L : launchFacts(AST))
        if (L.UnknownBlock && L.UnknownWhy.Loc.isValid())
          Why.try_emplace(SM.getExpansionLoc(L.Launch->getBeginLoc()),
                          L.UnknownWhy);
    }
    for (SourceLocation Launch : D.UnknownBlocks) {
      warning(Launch,
              "the kernel this launches runs on whole 64-lane wavefronts "
              "(it is written with warpSize), but the tool cannot evaluate "
              "the launch's block size: a block that is not a multiple of "
              "64 threads, or of fewer than 128, computes differently there "
              "than on 32-lane warps");
      if (D.RealWidth.Loc.isValid())
        note(D.RealWidth.Loc, "the kernel uses the device's warp width "
                              "here: " +
                                  D.RealWidth.What);
      if (auto It = Why.find(Launch); It != Why.end())
        note(It->second.Loc, "the block size is a parameter, and the tool "
                             "does not see every call that passes it: " +
                                 It->second.What);
      note(Launch, "write the block size as a constant, or a local variable "
                   "initialised with one, that the tool can evaluate; for "
                   "blocks of other sizes, write one of the kernel's warp "
                   "widths as 32 so that it keeps 32-lane warps "
                   "(docs/width-model.md)");
    }
  }
}

/// Where \p K's 32-lane assumption is, when it has one in this file.
void HostWarpSizeRule::noteThirtyTwo(const WidthDecision &K,
                                     const SourceManager &SM) {
  if (K.ThirtyTwo.Loc.isValid())
    note(SM.getExpansionLoc(K.ThirtyTwo.Loc),
         "the kernel assumes 32-lane warps here: " + K.ThirtyTwo.What);
}

/// A host use of the device's width in a function that also launches a
/// kernel that reads the width as 32: a value computed from it and passed
/// to that kernel (a buffer of one slot per warp, a group count) disagrees
/// with the kernel on a 64-lane device.
void HostWarpSizeRule::warnNarrowMismatch(const WidthUse &U,
                                          llvm::ArrayRef<NarrowLaunch> Narrow,
                                          const SourceManager &SM) {
  if (Narrow.empty())
    return;
  const WidthDecision &K = *Narrow.front().Kernel;
  warning(U.Range.getBegin(),
          "this is the device's width (64 on a wave64 GPU), but a kernel "
          "this function launches keeps 32-lane warps and reads the width "
          "as 32: a value computed here and passed to that kernel "
          "disagrees with it on 64-lane devices");
  noteThirtyTwo(K, SM);
  note(U.Range.getBegin(),
       "write 32 here if the value is for that kernel, or write the "
       "kernel's 32-lane values with warpSize so it follows the device "
       "(docs/width-model.md)");
}

/// Runs \p R's statements once per width, or says why they cannot.
void HostWarpSizeRule::dispatchRegion(const WidthRegion &R,
                                      const SourceManager &SM) {
  if (!R.Problem.empty()) {
    error(R.FirstUse,
          "the mvector width is a run-time value in host code (HIP has no "
          "compile-time wavefront size), so it cannot be a constant here");
    note(R.ProblemLoc,
         "the statements that need it as a constant (from there to the last "
         "that uses what they declare) would run once per width, but they "
         "contain " +
             R.Problem);
    note(R.FirstUse,
         "move the code that needs the constant into a function of its own, "
         "called as `f<MVECTOR_SIZE>(args);` (a 32/64 dispatch), or use "
         "MVECTOR_MAX / MVECTOR_MIN for storage bounds");
    return;
  }
  for (const auto &[Loc, Text] : regionInsertions(R))
    Ctx.Edits.insert(Loc, Text, Name);
  remark(R.FirstUse,
         "this needs the mvector width as a constant: the statements from "
         "here to line " +
             std::to_string(SM.getSpellingLineNumber(R.Range.getEnd())) +
             " run once for the current device's width "
             "(hpp::withWarpSize; a CUDA build compiles only 32)");
}

/// The width written inside another macro's expansion in host code: the
/// tool must rewrite it there and edits no macro expansion.
void HostWarpSizeRule::reportInMacro(const WidthUse &U, ASTContext &AST) {
  SourceLocation At = U.Range.getBegin();
  std::string Macro =
      Lexer::getSourceText(CharSourceRange::getTokenRange(At),
                           AST.getSourceManager(), AST.getLangOpts())
          .str();
  error(At, "the mvector width is written inside " +
                (Macro.empty() ? std::string("a macro") : "'" + Macro + "'") +
                " here; in host code it is a run-time value the tool must "
                "write, and it does not edit macro expansions");
  note(At, "write MVECTOR_SIZE outside the macro (for example, pass it as "
           "the macro's argument at a use of its own statement), or use "
           "MVECTOR_MAX / MVECTOR_MIN for storage bounds");
}

void HostWarpSizeRule::reportThroughConstant(const WidthUse &U) {
  std::string Var = U.Via->getNameAsString();
  if (U.Context == WidthUse::Uncaptured) {
    error(U.Range.getBegin(),
          "device code reads '" + Var +
              "', which holds the mvector width "
              "of the host, without capturing it: the kernel would get the "
              "width the tool assumes while it parses (32), not the device's");
    note(U.Via->getLocation(), "'" + Var +
                                   "' is initialised with the width "
                                   "here");
    note(U.Range.getBegin(),
         "capture it with an init-capture (`[=, " + Var + " = " + Var +
             "]`), or write MVECTOR_SIZE in the body (device code reads the "
             "executing device's width)");
    return;
  }
  error(U.Range.getBegin(),
        "'" + Var +
            "' holds the mvector width, a run-time value in host code "
            "(HIP has no compile-time wavefront size), so it cannot be a "
            "constant here");
  note(U.Via->getLocation(), "'" + Var +
                                 "' is initialised with the width "
                                 "here");
  note(U.Range.getBegin(),
       "write the width itself as an explicit template argument of a call "
       "statement (`f<MVECTOR_SIZE / 2>(args);` becomes a 32/64 dispatch), "
       "or use MVECTOR_MAX / MVECTOR_MIN for storage bounds");
}

} // namespace rewrite
} // namespace hpp
