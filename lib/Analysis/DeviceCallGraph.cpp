//===- DeviceCallGraph.cpp - What device code calls -----------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceCallGraph.h"
#include "Analysis/LaneId.h"
#include "Dialect/CudaCode.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/RuntimeAlgorithms.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

#include <tuple>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// Finds the roots: __device(hpp) functions and lambda call operators, and
/// in CUDA source the `__global__` and `__device__` functions outside
/// system headers.
class RootFinder : public DynamicASTVisitor {
public:
  std::vector<const FunctionDecl *> Roots;
  explicit RootFinder(const SourceManager &SM) : SM(SM) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (FD->doesThisDeclarationHaveABody() &&
        (getDeviceAnnotation(FD) ||
         (getCudaDeviceAttr(FD) &&
          !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))))
      Roots.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) override {
    const CXXMethodDecl *Op = LE->getCallOperator();
    if (getDeviceAnnotation(Op))
      Roots.push_back(Op);
    return true;
  }
  /// A runtime kernel's function object: its call operators run on the
  /// device, called from the kernel's call.
  bool VisitCallExpr(CallExpr *CE) override {
    if (const Expr *Functor = algorithmFunctor(CE))
      for (const FunctionDecl *Op : functorCallOperators(Functor))
        Functors.push_back({CE, Op});
    return true;
  }
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Functors;

private:
  const SourceManager &SM;
};

/// Collects the calls one function body makes.
class CallCollector : public DynamicASTVisitor {
public:
  std::vector<std::tuple<const FunctionDecl *, SourceLocation, SourceLocation>>
      Found;
  CallCollector() { ShouldVisitTemplateInstantiations = true; }

  bool VisitCallExpr(CallExpr *CE) override {
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      SourceLocation Name;
      if (const auto *DRE =
              dyn_cast_or_null<DeclRefExpr>(CE->getCallee()->IgnoreImplicit()))
        Name = DRE->getLocation();
      Found.emplace_back(FD, CE->getBeginLoc(), Name);
    }
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) override {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (!Ctor || Ctor->isTrivial())
      return true;
    Found.emplace_back(Ctor, CE->getBeginLoc(), SourceLocation());
    // A constructor the compiler writes is no function of the graph
    // (classify: Library), but the default member initializers it runs
    // are evaluated in the caller's code all the same.
    if (Ctor->isImplicit() || Ctor->isDefaulted())
      if (const auto *Def =
              dyn_cast_or_null<CXXConstructorDecl>(Ctor->getDefinition()))
        traverseInitializers(Def);
    return true;
  }
  /// A default argument is evaluated where the call is: in the caller.
  /// One the host's library writes is not followed: the call of that
  /// library function is what device code cannot make.
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) override {
    if (!inSystemHeader(E->getExpr()))
      TraverseStmt(E->getExpr());
    return true;
  }
  /// A default member initializer is evaluated by the constructor that
  /// runs it.
  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) override {
    if (!inSystemHeader(E->getExpr()))
      TraverseStmt(E->getExpr());
    return true;
  }

  /// The member and base initializers of \p Ctor, once.
  void traverseInitializers(const CXXConstructorDecl *Ctor) {
    if (!Seen.insert(Ctor).second)
      return;
    for (const CXXCtorInitializer *Init : Ctor->inits())
      TraverseStmt(Init->getInit());
  }

  const SourceManager *SM = nullptr;

private:
  bool inSystemHeader(const Expr *E) const {
    return E && SM &&
           SM->isInSystemHeader(SM->getExpansionLoc(E->getBeginLoc()));
  }

  llvm::SmallPtrSet<const CXXConstructorDecl *, 4> Seen;
};

} // namespace

/// Whether \p FD belongs to cooperative groups (the SDK's, or a stand-in):
/// device code in CUDA and HIP.
static bool inCooperativeGroups(const FunctionDecl *FD) {
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

bool DeviceCallGraph::isDeviceStdFunction(const FunctionDecl *FD) {
  const IdentifierInfo *II = FD->getIdentifier();
  if (!II || isa<CXXMethodDecl>(FD))
    return false;
  const DeclContext *NS = FD->getDeclContext()->getEnclosingNamespaceContext();
  while (NS && isa<NamespaceDecl>(NS) && cast<NamespaceDecl>(NS)->isInline())
    NS = NS->getParent(); // std::__cxx11 and the like.
  if (!NS || !(NS->isTranslationUnit() || NS->isStdNamespace()))
    return false;
  return llvm::StringSwitch<bool>(II->getName())
#define HPP_DEVICE_STD_FUNCTION(Name) .Case(#Name, true)
#include "Dialect/DeviceLibrary.def"
      .Default(false);
}

CalleeKind DeviceCallGraph::classify(const FunctionDecl *FD,
                                     const SourceManager &SM) {
  if (getDeviceAnnotation(FD))
    return CalleeKind::Annotated;
  // CUDA's own device functions (the intrinsics, cooperative groups): the
  // tool's declarations of the CUDA headers are system headers.
  if (getCudaDeviceAttr(FD))
    return SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()))
               ? CalleeKind::Library
               : CalleeKind::Annotated;
  if (FD->getBuiltinID() != 0 || isDialectAPI(FD))
    return CalleeKind::Library;
  if (FD->isImplicit() || FD->isDefaulted())
    return CalleeKind::Library; // Compiler-generated: host and device.
  if (const IdentifierInfo *II = FD->getIdentifier()) {
    bool Known = llvm::StringSwitch<bool>(II->getName())
#define HPP_DEVICE_LIBRARY_FUNCTION(Name) .Case(#Name, true)
#include "Dialect/DeviceLibrary.def"
                     .Default(false);
    if (Known && FD->isExternC())
      return CalleeKind::Library;
  }
  const FunctionDecl *Def = FD->getDefinition();
  const FunctionDecl *Subject = Def ? Def : FD;
  // The host's C++ library: nvcc compiles only what CUDA redeclares for
  // the device (DeviceLibrary.def).
  if (SM.isInSystemHeader(Subject->getLocation()))
    return isDeviceStdFunction(FD) ||
                   isInDialectHeader(Subject->getLocation(), SM) ||
                   inCooperativeGroups(FD)
               ? CalleeKind::Library
               : CalleeKind::Host;
  if (Subject->isInlined() || Subject->isConstexpr() ||
      Subject->isTemplateInstantiation() ||
      Subject->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    return CalleeKind::Implicit;
  return CalleeKind::Host;
}

DeviceCallGraph::DeviceCallGraph(ASTContext &Ctx) : Ctx(Ctx) {
  RootFinder Finder(Ctx.getSourceManager());
  Finder.TraverseAST(Ctx);
  for (const FunctionDecl *Root : Finder.Roots)
    addFunction(Root);
  // A kernel's function object is called by the runtime's device code: a
  // call without a caller in the file, at the kernel's call.
  for (auto [Call, Op] : Finder.Functors) {
    Calls.push_back({nullptr, Op, Call->getBeginLoc()});
    if (classify(Op, Ctx.getSourceManager()) == CalleeKind::Implicit) {
      addFunction(Op);
      const FunctionDecl *Pattern = Op->getTemplateInstantiationPattern();
      ImplicitPatterns.insert((Pattern ? Pattern : Op)->getCanonicalDecl());
    } else if (classify(Op, Ctx.getSourceManager()) == CalleeKind::Annotated) {
      addFunction(Op);
    }
  }
  // Functions is a worklist as well as the result.
  for (size_t I = 0; I < Functions.size(); ++I)
    scanBody(Functions[I]);
  findDeviceOnly();
}

/// An operation only device code can run: a warp intrinsic of spec 1.6
/// (CUDA declares even the bit counts `__device__`), __syncthreads, a
/// cooperative-groups call, a free atomic function (on a plain pointer the
/// GPU build resolves to CUDA's or HIP's `__device__` overload, which
/// beats the runtime's host-device template), a Barrier operation, or a
/// use of a work-group's Segment (the runtime declares it `__device__`: it
/// lives in the work-group's memory).
static bool isDeviceOperation(const FunctionDecl *Callee) {
  if (const IdentifierInfo *II = Callee->getIdentifier()) {
    if (warpCollectiveKind(II->getName()) != WarpCollectiveKind::None)
      return true;
    if (llvm::StringSwitch<bool>(II->getName())
            .Cases("__popc", "__popcll", "__ffs", "__ffsll", true)
            .Cases("__clz", "__clzll", "__syncthreads", "__gpu_sync", true)
            .Cases("atomicAdd", "atomicSub", "atomicMin", "atomicMax", true)
            .Cases("atomicExch", "atomicCAS", "atomicAnd", "atomicOr", true)
            .Cases("atomicXor", "atomicInc", "atomicDec", true)
            .Default(false))
      return true;
  }
  if (inCooperativeGroups(Callee))
    return true;
  // hpp::Barrier's wait / arrive / skip; anything on a Segment or a
  // BoundDistArray.
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee)) {
    if (!isDialectAPI(M))
      return false;
    llvm::StringRef Class = M->getParent()->getName();
    if (Class == "Barrier")
      return !isa<CXXConstructorDecl>(M);
    return Class == "Segment" || Class == "BoundDistArray";
  }
  return false;
}

/// The declaration an edit to \p FD lands on: its template pattern, or
/// its definition.
static const FunctionDecl *editedDecl(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  if (const FunctionDecl *Def = FD->getDefinition())
    return Def;
  return FD;
}

void DeviceCallGraph::findDeviceOnly() {
  // A caller of a device-only function is device-only: iterate to the
  // fixed point (the graph is small; recursion is rejected elsewhere).
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const Call &C : Calls) {
      if (!C.Caller)
        continue;
      const FunctionDecl *Caller = editedDecl(C.Caller);
      if (DeviceOnly.contains(Caller))
        continue;
      if (isDeviceOperation(C.Callee) ||
          DeviceOnly.contains(editedDecl(C.Callee)))
        Changed |= DeviceOnly.insert(Caller).second;
    }
  }
}

bool DeviceCallGraph::isDeviceOnly(const FunctionDecl *FD) const {
  return DeviceOnly.contains(editedDecl(FD));
}

bool DeviceCallGraph::isImplicitDevice(const FunctionDecl *Pattern) const {
  return ImplicitPatterns.contains(Pattern->getCanonicalDecl());
}

void DeviceCallGraph::addFunction(const FunctionDecl *FD) {
  if (const FunctionDecl *Def = FD->getDefinition())
    Functions.insert(Def);
}

void DeviceCallGraph::scanBody(const FunctionDecl *FD) {
  if (!FD->getBody() || FD->isDependentContext())
    return; // Template patterns are checked through their instantiations.
  CallCollector Collector;
  Collector.SM = &Ctx.getSourceManager();
  // A constructor's initializers run before its body, in the same code.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    Collector.traverseInitializers(Ctor);
  Collector.TraverseStmt(FD->getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  for (auto [Callee, Loc, NameLoc] : Collector.Found) {
    Calls.push_back({FD, Callee, Loc, NameLoc});
    CalleeKind Kind = classify(Callee, SM);
    if (Kind == CalleeKind::Annotated || Kind == CalleeKind::Implicit)
      addFunction(Callee);
    const auto *M = dyn_cast<CXXMethodDecl>(Callee);
    if (Kind == CalleeKind::Implicit && !(M && M->getParent()->isLambda())) {
      const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
      ImplicitPatterns.insert((Pattern ? Pattern : Callee)->getCanonicalDecl());
    }
  }
}

} // namespace rewrite
} // namespace hpp
