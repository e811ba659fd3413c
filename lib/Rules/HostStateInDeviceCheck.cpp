//===- HostStateInDeviceCheck.cpp -----------------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/HostStateInDeviceCheck.h"
#include "Analysis/Captures.h"
#include "Analysis/DeviceCallGraph.h"
#include "Analysis/LaneId.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/DialectMatchers.h"
#include "Framework/DynamicASTVisitor.h"

#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {

/// A variable device code may read without being passed it: a const
/// arithmetic or enumeration constant with a constant initialiser, which
/// nvcc and hipcc fold into device code. Not one initialised with the warp
/// width: a constant only while the tool parses.
bool isDeviceConstant(const VarDecl *VD) {
  QualType T = VD->getType();
  if (!(T->isArithmeticType() || T->isEnumeralType()) ||
      !T.isConstQualified() || T.isVolatileQualified() || !VD->hasInit())
    return false;
  return (VD->isConstexpr() || VD->hasConstantInitialization()) &&
         !readsWarpWidth(VD->getInit());
}

/// A variable CUDA source places in device memory: `__shared__`,
/// `__device__`, `__constant__` (and `__managed__`, which is `__device__`
/// too).
bool isCudaDeviceVariable(const VarDecl *VD) {
  return VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<CUDADeviceAttr>() ||
         VD->hasAttr<CUDAConstantAttr>();
}

/// Variables in host memory named by device code, first use of each.
class HostStateFinder : public DynamicASTVisitor {
public:
  explicit HostStateFinder(const SourceManager &SM) : SM(SM) {}

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *VD = dyn_cast<VarDecl>(E->getDecl());
    if (!VD || !VD->hasGlobalStorage() || isDeviceConstant(VD) ||
        isCudaDeviceVariable(VD) || isDialectAPI(VD) ||
        SM.isInSystemHeader(VD->getLocation()) ||
        (VD->getDeclContext()->isTranslationUnit() &&
         VD->getName() == "warpSize"))
      return true;
    if (VD->isInStdNamespace())
      return true;
    SourceLocation Loc = SM.getExpansionLoc(E->getLocation());
    if (Reported.insert(Loc).second)
      Uses.push_back({VD, Loc});
    return true;
  }

  struct Use {
    const VarDecl *Var;
    SourceLocation Loc;
  };
  std::vector<Use> Uses;
  llvm::DenseSet<SourceLocation> Reported;

private:
  const SourceManager &SM;
};

} // namespace

void HostStateInDeviceCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(parallelForCall(), this);
  Finder.addMatcher(taskConstruction(), this);
  Finder.addMatcher(taskVariable(), this);
  Finder.addMatcher(channelExecuteWith(), this);
}

void HostStateInDeviceCheck::run(const MatchFinder::MatchResult &R) {
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (!LE)
    return;
  for (const Capture &C : collectCaptures(LE)) {
    if (C.Kind != CaptureKind::Value || !C.Var)
      continue;
    QualType T = C.Var->getType().getNonReferenceType();
    if (T->isDependentType() || T.isTriviallyCopyableType(*R.Context) ||
        isDialectPointer(T))
      continue;
    const auto *RD = T->getAsCXXRecordDecl();
    if (RD && RD->isLambda())
      continue; // Refused by the outliner.
    error(C.Loc, "'" + C.Var->getNameAsString() + "' of type '" +
                     T.getAsString() +
                     "' is captured by value, but a kernel can only be "
                     "passed trivially copyable objects: copying or "
                     "destroying it runs host code");
    note(C.Var->getLocation(),
         "'" + C.Var->getNameAsString() +
             "' declared here; keep the data in a Pointer from allocate() "
             "and capture the Pointer");
  }
}

void HostStateInDeviceCheck::onEndOfTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  HostStateFinder Finder(SM);
  for (const FunctionDecl *FD : Ctx.deviceGraph().functions())
    if (const FunctionDecl *Def = FD->getDefinition())
      if (Def->hasBody() && !SM.isInSystemHeader(Def->getLocation()) &&
          !isDialectAPI(Def))
        Finder.TraverseStmt(Def->getBody());
  for (const HostStateFinder::Use &U : Finder.Uses) {
    const VarDecl *VD = U.Var;
    std::string Name = VD->getNameAsString();
    error(U.Loc, "device code reads '" + Name +
                     "', which lives in host memory; a kernel sees only "
                     "what it is passed");
    note(VD->getLocation(),
         "'" + Name +
             "' declared here; copy it into a local variable before the "
             "parallelFor and capture that, or make it a constexpr scalar");
  }
}

} // namespace rewrite
} // namespace hpp
