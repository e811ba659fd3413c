//===- CoarseGrained.cpp - Kernel pointers to cudaMalloc memory -----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/CoarseGrained.h"
#include "Dialect/CudaCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// \p E without parentheses and casts from a pointer to a pointer.
const Expr *stripPointerCasts(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() != CK_NoOp && ICE->getCastKind() != CK_BitCast)
        return E;
      E = ICE->getSubExpr();
      continue;
    }
    const auto *ECE = dyn_cast<ExplicitCastExpr>(E);
    if (!ECE || !ECE->getType()->isPointerType() ||
        !ECE->getSubExpr()->getType()->isPointerType())
      return E;
    E = ECE->getSubExpr();
  }
}

/// The function whose text \p FD's body is (a template's pattern for an
/// instantiation), canonical.
const FunctionDecl *kernelPattern(const FunctionDecl *FD) {
  if (isTemplateInstantiation(FD->getTemplateSpecializationKind()))
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      FD = P;
  return FD->getCanonicalDecl();
}

/// The source text of \p E, for a note.
std::string textOf(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  llvm::StringRef Text =
      Range.isValid() ? Lexer::getSourceText(Range, SM, Ctx.getLangOpts()) : "";
  return Text.empty() || Text.size() > 60 ? "the argument"
                                          : ("'" + Text + "'").str();
}

} // namespace

const DeclRefExpr *pointerBase(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = stripPointerCasts(E);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() != CK_LValueToRValue &&
          ICE->getCastKind() != CK_ArrayToPointerDecay)
        return nullptr;
      return dyn_cast<DeclRefExpr>(ICE->getSubExpr()->IgnoreParens());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
        return nullptr;
      if (BO->getLHS()->getType()->isPointerType())
        E = BO->getLHS();
      else if (BO->getOpcode() == BO_Add &&
               BO->getRHS()->getType()->isPointerType())
        E = BO->getRHS();
      else
        return nullptr;
      continue;
    }
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return nullptr;
    const Expr *Object = UO->getSubExpr()->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Object))
      return DRE;
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(Object);
    if (!ASE)
      return nullptr;
    E = ASE->getBase();
  }
  return nullptr;
}

/// Collects the launches, the other references to kernels, and the uses of
/// every pointer variable, instantiations included.
class CoarseGrainedScan : public DynamicASTVisitor {
public:
  explicit CoarseGrainedScan(CoarseGrainedParams &P) : P(P) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) override {
    // Before the callee's own visit: a launch's callee is no other use.
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Launch->getCallee()->IgnoreParenImpCasts()))
      LaunchCallees.insert(DRE);
    if (Launch->isInstantiationDependent())
      return true;
    if (const FunctionDecl *Kernel = Launch->getDirectCallee())
      P.Launches[kernelPattern(Kernel)].push_back(Launch);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      if ((isCudaKernel(FD) && !LaunchCallees.contains(DRE)) ||
          (isDeviceOnly(FD) && !CallCallees.contains(DRE)))
        P.OtherUses.try_emplace(kernelPattern(FD), DRE);
      return true;
    }
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->getType()->isPointerType())
      P.Refs[VD].push_back(DRE);
    return true;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) override {
    if (ICE->getCastKind() == CK_LValueToRValue)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(ICE->getSubExpr()->IgnoreParens()))
        P.Reads.insert(DRE);
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *Callee = CE->getDirectCallee();
    // A call of a device function: its pointer parameters follow the
    // caller's (before the callee's own visit: no other use).
    if (Callee && isDeviceOnly(Callee) && !isa<CUDAKernelCallExpr>(CE))
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts())) {
        CallCallees.insert(DRE);
        if (!CE->isInstantiationDependent())
          P.Calls[kernelPattern(Callee)].push_back(CE);
      }
    if (!Callee || CE->getNumArgs() == 0 || isa<CXXMethodDecl>(Callee) ||
        !Callee->getIdentifier())
      return true;
    const auto *UO = dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenCasts());
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return true;
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
      P.Allocations[DRE] = Callee->getQualifiedNameAsString();
    return true;
  }

private:
  /// A `__device__` function that is not also `__host__` (host code could
  /// call it with any memory) and not a member.
  static bool isDeviceOnly(const FunctionDecl *FD) {
    return FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>() &&
           !FD->hasAttr<CUDAGlobalAttr>() && !isa<CXXMethodDecl>(FD) &&
           FD->getIdentifier();
  }
  CoarseGrainedParams &P;
  llvm::DenseSet<const DeclRefExpr *> LaunchCallees, CallCallees;
};

CoarseGrainedParams::CoarseGrainedParams(ASTContext &Ctx) : Ctx(Ctx) {
  if (!Ctx.getLangOpts().CUDA)
    return;
  CoarseGrainedScan(*this).TraverseAST(Ctx);
}

llvm::ArrayRef<CoarseGrainedNote>
CoarseGrainedParams::whyNot(const FunctionDecl *Kernel, unsigned Index) {
  const FunctionDecl *K = kernelPattern(Kernel);
  auto It = Answers.find({K, Index});
  if (It != Answers.end())
    return It->second;
  // A recursion through calls reaches this parameter again: not known.
  Answers[{K, Index}] = {
      {K->getLocation(), "'" + K->getNameAsString() +
                             "' calls itself (or is called back), with a "
                             "pointer the tool does not follow"}};
  std::vector<CoarseGrainedNote> Notes =
      isCudaKernel(K) ? compute(K, Index) : computeDevice(K, Index);
  return Answers[{K, Index}] = std::move(Notes);
}

std::vector<CoarseGrainedNote>
CoarseGrainedParams::compute(const FunctionDecl *K, unsigned Index) {
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string Name = "'" + K->getNameAsString() + "'";
  if (!Ctx.getLangOpts().CUDA || !isCudaKernel(K))
    return {{K->getLocation(), Name + " is not a kernel"}};
  for (const FunctionDecl *D : K->redecls())
    if (!SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      return {{D->getLocation(),
               "the kernel " + Name +
                   " is declared here, outside the main file: other "
                   "sources may launch it"}};
  if (auto U = OtherUses.find(K); U != OtherUses.end())
    return {{U->second->getBeginLoc(),
             "the kernel " + Name +
                 " is named here other than in a launch: it may be launched "
                 "with other memory"}};
  auto L = Launches.find(K);
  if (L == Launches.end())
    return {{K->getLocation(),
             "the kernel " + Name + " is not launched in this file"}};
  for (const CallExpr *Launch : L->second) {
    const FunctionDecl *Def = Launch->getDirectCallee()->getDefinition();
    if (!Def || Index >= Def->getNumParams() || Index >= Launch->getNumArgs())
      return {{Launch->getBeginLoc(),
               "the kernel launched here has no definition in this file"}};
    const ParmVarDecl *Param = Def->getParamDecl(Index);
    const std::string Quoted = "'" + Param->getNameAsString() + "'";
    for (const DeclRefExpr *Use : Refs.lookup(Param))
      if (!Reads.contains(Use))
        return {{Use->getLocation(), "the kernel assigns " + Quoted +
                                         " here (or takes its address)"}};
    const Expr *Arg = Launch->getArg(Index);
    if (isa<CXXDefaultArgExpr>(Arg))
      return {{Launch->getBeginLoc(),
               "this launch passes " + Quoted + "'s default argument"}};
    const DeclRefExpr *Base = pointerBase(Arg);
    const auto *Var = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (!Var)
      return {{Arg->getBeginLoc(),
               "this launch passes " + textOf(Arg, Ctx) + " for " + Quoted +
                   ", not a variable of the host ('v', 'v + i', '&v[i]') "
                   "whose memory the tool follows"}};
    llvm::SmallVector<CoarseGrainedNote, 2> Problem = variableProblem(Var);
    if (Problem.empty())
      continue;
    std::vector<CoarseGrainedNote> Notes = {
        {Arg->getBeginLoc(),
         "this launch passes " + textOf(Arg, Ctx) + " for " + Quoted}};
    Notes.insert(Notes.end(), Problem.begin(), Problem.end());
    return Notes;
  }
  return {};
}

/// Parameter \p Index of the device function \p F is known coarse-grained
/// when F is declared only in the main file, named only in calls, called
/// at least once, never assigns the parameter, and every call passes for it
/// a pointer into a parameter of its caller (a kernel or another such
/// device function) that is known coarse-grained.
std::vector<CoarseGrainedNote>
CoarseGrainedParams::computeDevice(const FunctionDecl *F, unsigned Index) {
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string Name = "'" + F->getNameAsString() + "'";
  if (F->hasAttr<CUDAHostAttr>() || isa<CXXMethodDecl>(F))
    return {{F->getLocation(),
             Name + (isa<CXXMethodDecl>(F)
                         ? " is a member function, which the tool does not "
                           "follow"
                         : " is a host function too: host code may call it "
                           "with any memory")}};
  for (const FunctionDecl *D : F->redecls())
    if (!SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      return {{D->getLocation(),
               "the device function " + Name +
                   " is declared here, outside the main file: other "
                   "sources may call it"}};
  if (auto U = OtherUses.find(F); U != OtherUses.end())
    return {{U->second->getBeginLoc(),
             "the device function " + Name +
                 " is named here other than in a call: it may be called "
                 "with other memory"}};
  auto C = Calls.find(F);
  if (C == Calls.end())
    return {{F->getLocation(),
             "the device function " + Name + " is not called in this file"}};
  for (const CallExpr *Call : C->second) {
    const FunctionDecl *Def = Call->getDirectCallee()->getDefinition();
    if (!Def || Index >= Def->getNumParams() || Index >= Call->getNumArgs())
      return {{Call->getBeginLoc(),
               "the device function called here has no definition in this "
               "file"}};
    const ParmVarDecl *Param = Def->getParamDecl(Index);
    const std::string Quoted = "'" + Param->getNameAsString() + "'";
    for (const DeclRefExpr *Use : Refs.lookup(Param))
      if (!Reads.contains(Use))
        return {{Use->getLocation(),
                 Name + " assigns " + Quoted + " here (or takes its address)"}};
    const Expr *Arg = Call->getArg(Index);
    const std::vector<CoarseGrainedNote> Passes = {
        {Arg->getBeginLoc(),
         "this call passes " + textOf(Arg, Ctx) + " for " + Quoted}};
    if (isa<CXXDefaultArgExpr>(Arg))
      return {{Call->getBeginLoc(),
               "this call passes " + Quoted + "'s default argument"}};
    const DeclRefExpr *Base = pointerBase(Arg);
    const auto *Caller =
        Base ? dyn_cast<ParmVarDecl>(Base->getDecl()) : nullptr;
    const auto *G =
        Caller ? dyn_cast<FunctionDecl>(Caller->getDeclContext()) : nullptr;
    if (!G || !(isCudaKernel(G) || G->hasAttr<CUDADeviceAttr>())) {
      std::vector<CoarseGrainedNote> Notes = Passes;
      Notes.push_back({Arg->getBeginLoc(),
                       "not a pointer parameter of the calling kernel or "
                       "device function ('p', 'p + i', '&p[i]'), which the "
                       "tool follows"});
      return Notes;
    }
    llvm::ArrayRef<CoarseGrainedNote> Up =
        whyNot(G, Caller->getFunctionScopeIndex());
    if (Up.empty())
      continue;
    std::vector<CoarseGrainedNote> Notes = Passes;
    Notes.insert(Notes.end(), Up.begin(), Up.end());
    return Notes;
  }
  return {};
}

llvm::SmallVector<CoarseGrainedNote, 2>
CoarseGrainedParams::variableProblem(const VarDecl *Var) {
  const std::string Name = "'" + Var->getNameAsString() + "'";
  SourceLocation At = Var->getLocation();
  if (const auto *P = dyn_cast<ParmVarDecl>(Var)) {
    const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
    return {{At, Name + " is a parameter of " +
                     (F ? "'" + F->getNameAsString() + "'"
                        : std::string("its function")) +
                     ": its memory is its callers'"}};
  }
  if (Var->hasAttr<CUDADeviceAttr>() || Var->hasAttr<CUDAConstantAttr>() ||
      Var->hasAttr<CUDASharedAttr>() || Var->hasAttr<HIPManagedAttr>())
    return {{At, Name + " is not a variable of the host"}};
  if (Var->getType()->isArrayType())
    return {{At, Name + " is an array of the host, not memory from "
                        "cudaMalloc"}};
  if (!Var->getType()->isPointerType())
    return {{At, Name + " is a variable of the host, not memory from "
                        "cudaMalloc"}};
  if (!Var->isLocalVarDecl() && Var->isExternallyVisible())
    return {{At, Name + " is a global variable, which other sources may "
                        "assign"}};
  if (const Expr *Init = Var->getInit();
      Init &&
      !Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return {{Init->getBeginLoc(),
             Name + " is initialised here with memory that is not known to "
                    "come from cudaMalloc"}};
  bool FromCudaMalloc = false;
  for (const DeclRefExpr *Use : Refs.lookup(Var)) {
    if (Reads.contains(Use))
      continue;
    auto A = Allocations.find(Use);
    if (A != Allocations.end() && A->second == "cudaMalloc") {
      FromCudaMalloc = true;
      continue;
    }
    if (A != Allocations.end())
      return {{Use->getLocation(),
               Name + " is written by '" + A->second +
                   "' here: only cudaMalloc's memory is known to be "
                   "coarse-grained"}};
    return {
        {Use->getLocation(), Name + " is assigned here, or its address taken"}};
  }
  if (!FromCudaMalloc)
    return {{At, Name + " gets no memory from cudaMalloc in this file"}};
  return {};
}

} // namespace rewrite
} // namespace hpp
