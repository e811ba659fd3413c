//===- AlgorithmCallCheck.cpp - Calls of the runtime's kernels ------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/AlgorithmCallCheck.h"
#include "Analysis/DeviceCallGraph.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/RuntimeAlgorithms.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void AlgorithmCallCheck::registerMatchers(MatchFinder &Finder) {
  // Instantiations included: a functor of a template's parameter type is
  // known only there.
  Finder.addMatcher(callExpr(isExpansionInRewrittenFile()).bind("call"), this);
}

void AlgorithmCallCheck::run(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const Expr *Functor = Call ? algorithmFunctor(Call) : nullptr;
  if (!Functor)
    return;
  std::string Kernel = "hpp::" + Call->getDirectCallee()->getNameAsString();
  QualType T = Functor->getType().getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  const char *What = nullptr;
  if (RD && RD->isLambda())
    What = "a lambda";
  else if (T->isFunctionType() || T->isFunctionPointerType() ||
           T->isMemberFunctionPointerType())
    What = "a function";
  else if (!RD)
    return; // Not callable: the compiler says so.
  SourceLocation Loc = Functor->getBeginLoc();
  if (!What) {
    // The kernels receive a copy of the object's bytes.
    std::optional<std::string> Problem =
        deviceValueProblem(T.getUnqualifiedType(), *Result.Context);
    if (Problem && Reported.insert(Loc.getRawEncoding()).second)
      error(Loc, "the function object of " + Kernel +
                     " is copied to the device byte for byte: " + *Problem);
    return;
  }
  if (!Reported.insert(Loc.getRawEncoding()).second)
    return;
  error(Loc, std::string(What) + " cannot be the function object of " + Kernel +
                 ": its kernels call it on the device, and nvcc "
                 "compiles what host code writes for the host only");
  note(Loc, "pass an object of a struct whose operator() is __device(hpp) "
            "(or hpp::Plus, hpp::Minimum, hpp::Maximum)");
}

void AlgorithmCallCheck::onEndOfTranslationUnit(ASTContext &AST) {
  for (const DeviceCallGraph::Call &C : Ctx.deviceGraph().calls()) {
    if (!C.Caller || !isRuntimeAlgorithm(C.Callee))
      continue;
    if (!Reported.insert(C.Loc.getRawEncoding()).second)
      continue;
    error(C.Loc, "hpp::" + C.Callee->getNameAsString() +
                     " is called from host code only: it launches the "
                     "runtime's kernels and waits for them");
    note(C.Loc, "the work-group and warp collectives (hpp::groupReduce, "
                "hpp::warpReduce, ...) combine values inside a body");
  }
}

} // namespace rewrite
} // namespace hpp
