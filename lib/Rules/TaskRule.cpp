//===- TaskRule.cpp - Outline Task bodies into kernels --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/TaskRule.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/DialectMatchers.h"
#include "Dialect/Tasks.h"
#include "Framework/RewriteScope.h"
#include "Outline/KernelSites.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void TaskRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(taskConstruction(), this);
  Finder.addMatcher(taskVariable(), this);
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               lambdaExpr(isExpansionInRewrittenFile()).bind("device-lambda")),
      this);
}

/// Whether a template argument list names an hpp::Task.
static bool namesTask(llvm::ArrayRef<TemplateArgument> Args) {
  for (const TemplateArgument &A : Args)
    if (A.getKind() == TemplateArgument::Type && taskTypeArgs(A.getAsType()))
      return true;
  return false;
}

/// The arguments of an explicit template argument list as written.
static llvm::SmallVector<TemplateArgument, 2>
templateArgumentsOf(llvm::ArrayRef<TemplateArgumentLoc> Locs) {
  llvm::SmallVector<TemplateArgument, 2> Args;
  for (const TemplateArgumentLoc &L : Locs)
    Args.push_back(L.getArgument());
  return Args;
}

/// Whether calling \p FD may construct an hpp::Task from its arguments:
/// a member of a class template of Tasks (`std::vector<Task<...>>::
/// emplace_back`), or a function template given a Task type
/// (`std::make_shared<Task<...>>`).
static bool mayConstructTask(const FunctionDecl *FD) {
  if (!FD)
    return false;
  if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
    if (namesTask(Args->asArray()))
      return true;
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
    if (const auto *Spec =
            dyn_cast<ClassTemplateSpecializationDecl>(M->getParent()))
      return namesTask(Spec->getTemplateArgs().asArray());
  return false;
}

/// The template arguments of a (possibly dependent) class type: those of a
/// specialization, written or instantiated.
static llvm::ArrayRef<TemplateArgument> classTemplateArgs(QualType T) {
  if (T.isNull())
    return {};
  if (const auto *P = T->getAs<PointerType>())
    T = P->getPointeeType();
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    return TST->template_arguments();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl()))
    return Spec->getTemplateArgs().asArray();
  return {};
}

/// The name of the function \p Call calls when it may construct an
/// hpp::Task from its arguments; in a template, a call not yet resolved
/// counts when its object's type or its explicit template arguments name
/// a Task (`ts.emplace_back(...)` on a `std::vector<Task<T, ...>>`,
/// `std::make_shared<Task<T, ...>>(...)`).
static std::optional<std::string> taskMaker(const CallExpr *Call) {
  if (!Call)
    return std::nullopt;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return mayConstructTask(FD)
               ? std::optional<std::string>(FD->getQualifiedNameAsString())
               : std::nullopt;
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
    if (namesTask(classTemplateArgs(M->getBaseType())) ||
        namesTask(templateArgumentsOf(M->template_arguments())))
      return M->getMember().getAsString();
  } else if (const auto *O = dyn_cast<OverloadExpr>(Callee)) {
    QualType Base;
    if (const auto *UM = dyn_cast<UnresolvedMemberExpr>(O))
      Base = UM->getBaseType();
    if (namesTask(classTemplateArgs(Base)) ||
        namesTask(templateArgumentsOf(O->template_arguments())))
      return O->getName().getAsString();
  }
  return std::nullopt;
}

void TaskRule::checkLaunched(const LambdaExpr *LE, ASTContext &AST) {
  if (!getDeviceAnnotation(LE->getCallOperator()) || isInsideDeviceFunction(LE))
    return;
  // The first node above the lambda that is not an implicit conversion. A
  // lambda given to a call that constructs a Task from it elsewhere (in a
  // container's allocator) is neither outlined nor left working: the
  // output would keep a lambda where the runtime's Task takes a kernel.
  DynTypedNode Node = DynTypedNode::create(*LE);
  for (;;) {
    DynTypedNodeList Parents = AST.getParents(Node);
    if (Parents.empty())
      return;
    Node = Parents[0];
    const auto *E = Node.get<Expr>();
    if (!E ||
        !(isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
              ExprWithCleanups, ParenExpr, ConstantExpr>(E)))
      break;
  }
  std::optional<std::string> Maker = taskMaker(Node.get<CallExpr>());
  if (!Maker)
    return;
  error(LE->getBeginLoc(),
        "this __device(hpp) lambda makes a Task in '" + *Maker +
            "', not in a Task construction written in the source, so the "
            "rewrite cannot outline it into the Task's kernel; construct "
            "the Task with the lambda (`Task<R, I> t([=](I i) __device(hpp) "
            "{ ... });`) and pass the Task");
}

void TaskRule::run(const MatchFinder::MatchResult &R) {
  if (const auto *DL = R.Nodes.getNodeAs<LambdaExpr>("device-lambda")) {
    checkLaunched(DL, *R.Context);
    return;
  }
  const auto *Site = R.Nodes.getNodeAs<Expr>("task");
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (!Site || !Seen.insert(Site).second)
    return;
  const SourceManager &SM = *R.SourceManager;
  QualType TaskType = Site->getType();
  if (const auto *VD = R.Nodes.getNodeAs<VarDecl>("task-var"))
    TaskType = VD->getType();
  else if (const auto *UE = dyn_cast<CXXUnresolvedConstructExpr>(Site))
    TaskType = UE->getTypeAsWritten();
  llvm::SmallVector<const Expr *, 2> Args = taskArguments(Site);
  // The tool's own output, parsed again: already a kernel.
  if (Args.empty() || (Args.size() == 1 && isTaskKernelCall(Args[0])))
    return;
  if (Site->getBeginLoc().isMacroID() || Site->getEndLoc().isMacroID()) {
    error(SM.getExpansionLoc(Site->getBeginLoc()),
          "cannot rewrite a Task constructed through a macro; expand the "
          "macro at this construction by hand");
    return;
  }
  if (!LE || Args.size() != 1) {
    error(Args.front()->getBeginLoc(),
          "the body of a Task must be a lambda expression written in the "
          "Task's construction, its only argument");
    return;
  }
  // GPUs launch kernels from the host: HIP has no device-side launch.
  if (isInsideDeviceFunction(LE)) {
    error(SM.getExpansionLoc(Site->getBeginLoc()),
          "a Task inside device code cannot be rewritten: its kernel is "
          "launched from the host (HIP has no launch from device code); "
          "make the Task in host code");
    return;
  }
  if (LE->getBeginLoc().isMacroID() || LE->getEndLoc().isMacroID()) {
    error(SM.getExpansionLoc(LE->getBeginLoc()),
          "cannot outline a Task body written through a macro; write the "
          "lambda in the construction");
    return;
  }
  if (LE->getCallOperator()->getNumParams() != 1) {
    error(LE->getBeginLoc(),
          "the lambda of a Task<R, IndexT> must take one parameter, its "
          "IndexT (hpp::Index<N> or hpp::Index<N, N>); this one takes " +
              std::to_string(LE->getCallOperator()->getNumParams()));
    return;
  }
  if (std::optional<TaskTypeArgs> TA = taskTypeArgs(TaskType))
    if (auto Problem = deviceValueProblem(TA->Result, *R.Context)) {
      error(SM.getExpansionLoc(Site->getBeginLoc()),
            "the result type of this Task cannot be rewritten: " + *Problem);
      return;
    }
  Ctx.kernelSites().add({KernelKind::Task, Site, LE, TaskType, Name});
}

} // namespace rewrite
} // namespace hpp
