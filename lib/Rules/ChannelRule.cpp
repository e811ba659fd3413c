//===- ChannelRule.cpp - Channel consumers and producers ------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/ChannelRule.h"
#include "Analysis/Captures.h"
#include "Analysis/DeviceCallGraph.h"
#include "Dialect/Channels.h"
#include "Dialect/Coordinators.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/DialectMatchers.h"
#include "Framework/DynamicASTVisitor.h"
#include "Framework/RewriteScope.h"
#include "Outline/KernelSites.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {
/// A channel of a dependent type: `Channel<T>` in a template.
bool isDependentChannel(QualType T) {
  return !T.isNull() && T->isDependentType() && mentionsChannelType(T);
}

AST_POLYMORPHIC_MATCHER(hasDependentChannelType,
                        AST_POLYMORPHIC_SUPPORTED_TYPES(Expr, ValueDecl)) {
  return isDependentChannel(Node.getType());
}

/// A call of a member of a concrete `hpp::Channel<T>`.
AST_MATCHER(CallExpr, callsChannelMember) {
  return channelMemberObject(&Node) != nullptr;
}

/// The arguments written in \p Call (not the defaulted caller location).
llvm::SmallVector<const Expr *, 4> writtenArguments(const CallExpr *Call) {
  llvm::SmallVector<const Expr *, 4> Out;
  for (const Expr *A : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      Out.push_back(A);
  return Out;
}

/// The variables of a Channel type (or a pointer or reference to one)
/// declared in a device function: parameters and locals.
class ChannelDecls : public DynamicASTVisitor {
public:
  explicit ChannelDecls(
      const llvm::SmallPtrSetImpl<const FunctionDecl *> &Coordinators)
      : Coordinators(Coordinators) {}
  std::vector<const VarDecl *> Found;
  bool TraverseLambdaExpr(LambdaExpr *LE) override {
    // A coordinator's `Channel<T> *` parameter is its own.
    return Coordinators.contains(LE->getCallOperator()) ||
           DynamicASTVisitor::TraverseLambdaExpr(LE);
  }
  bool VisitVarDecl(VarDecl *VD) override {
    if (mentionsChannelType(VD->getType()))
      Found.push_back(VD);
    return true;
  }

private:
  const llvm::SmallPtrSetImpl<const FunctionDecl *> &Coordinators;
};
} // namespace

void ChannelRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      callExpr(channelExecuteWith(),
               optionally(forCallable(functionDecl().bind("execute-fn")))),
      this);
  // Kernel lambdas: their channel captures (a consumer's are checked with
  // its executeWith).
  Finder.addMatcher(parallelForCall(), this);
  Finder.addMatcher(taskConstruction(), this);
  Finder.addMatcher(taskVariable(), this);
  // Host uses; the enclosing function says whether it is host code.
  Finder.addMatcher(
      traverse(
          TK_IgnoreUnlessSpelledInSource,
          callExpr(callsChannelMember(), isExpansionInRewrittenFile(),
                   optionally(forCallable(functionDecl().bind("member-fn"))))
              .bind("member")),
      this);
  // Templates: as spelled, a template's uses are reported once, in the
  // pattern.
  Finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                             declaratorDecl(hasDependentChannelType(),
                                            isExpansionInRewrittenFile())
                                 .bind("dependent-decl")),
                    this);
  Finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                             cxxDependentScopeMemberExpr(
                                 hasObjectExpression(hasDependentChannelType()),
                                 isExpansionInRewrittenFile())
                                 .bind("dependent-use")),
                    this);
}

void ChannelRule::reportOnce(SourceLocation Loc, const std::string &Message) {
  if (Loc.isValid() && Reported.insert(Loc).second)
    error(Loc, Message);
}

bool ChannelRule::inDeviceCode(const FunctionDecl *FD) {
  llvm::ArrayRef<const FunctionDecl *> Device = Ctx.deviceGraph().functions();
  for (const DeclContext *DC = FD; DC; DC = DC->getParent())
    if (const auto *F = dyn_cast<FunctionDecl>(DC))
      if (getDeviceAnnotation(F) || Ctx.deviceGraph().isImplicitDevice(F) ||
          llvm::is_contained(Device, F))
        return true;
  return false;
}

void ChannelRule::run(const MatchFinder::MatchResult &R) {
  const SourceManager &SM = *R.SourceManager;
  if (const auto *Call = R.Nodes.getNodeAs<CallExpr>("execute")) {
    checkExecuteWith(Call, R);
    return;
  }
  if (const auto *Call = R.Nodes.getNodeAs<CallExpr>("member")) {
    checkHostCall(Call, R.Nodes.getNodeAs<FunctionDecl>("member-fn"));
    return;
  }
  const std::string Dependent =
      ": channels of a dependent type (a Channel<T> in a template) are not "
      "supported by the rewriter yet; use a concrete Channel type";
  if (const auto *D = R.Nodes.getNodeAs<DeclaratorDecl>("dependent-decl")) {
    reportOnce(SM.getExpansionLoc(D->getLocation()),
               "'" + D->getNameAsString() + "' has type '" +
                   D->getType().getAsString() + "'" + Dependent);
    return;
  }
  if (const auto *E =
          R.Nodes.getNodeAs<CXXDependentScopeMemberExpr>("dependent-use")) {
    reportOnce(SM.getExpansionLoc(E->getMemberLoc()),
               "this use of Channel::" + E->getMember().getAsString() +
                   Dependent);
    return;
  }
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (LE && Seen.insert(LE).second)
    checkCaptures(LE);
}

void ChannelRule::checkExecuteWith(const CallExpr *Call,
                                   const MatchFinder::MatchResult &R) {
  if (!Seen.insert(Call).second)
    return;
  const SourceManager &SM = *R.SourceManager;
  const auto *Coord = R.Nodes.getNodeAs<LambdaExpr>("coordinator");
  if (Coord)
    Coordinators.insert(Coord->getCallOperator());
  llvm::SmallVector<const Expr *, 4> Args = writtenArguments(Call);
  // The tool's own output, parsed again: already a kernel.
  if (Args.size() < 3 || isConsumerKernelCall(Args.back()))
    return;
  if (Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID()) {
    error(SM.getExpansionLoc(Call->getBeginLoc()),
          "cannot rewrite an executeWith written through a macro; expand the "
          "macro at this call by hand");
    return;
  }
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  // GPUs launch kernels from the host: HIP has no device-side launch.
  const auto *Fn = R.Nodes.getNodeAs<FunctionDecl>("execute-fn");
  if (Fn && inDeviceCode(Fn)) {
    error(Call->getCallee()->getExprLoc(),
          "executeWith inside device code cannot be rewritten: its consumer "
          "is launched from the host (HIP has no launch from device code); "
          "call it in host code");
    return;
  }
  const Expr *Object = channelMemberObject(Call, "executeWith");
  QualType Channel = Object->getType();
  if (Channel->isPointerType())
    Channel = Channel->getPointeeType();
  QualType Element = channelElementType(Channel);
  if (auto Problem = deviceValueProblem(Element, *R.Context)) {
    error(Object->getExprLoc(),
          "the element type of this channel cannot be rewritten: " + *Problem);
    return;
  }

  // The coordinator: host code, kept as written.
  for (const ChannelProblem &P : coordinatorProblems(Args[0], Element))
    error(P.Loc, P.Message);
  if (Coord && Coord->getCompoundStmtBody() &&
      !hasCoordinatorMark(Coord, SM, R.Context->getLangOpts()))
    warning(Coord->getBeginLoc(),
            "the coordinator is not marked '__device(coord)'")
        << FixItHint::CreateInsertion(
               Coord->getCompoundStmtBody()->getLBracLoc(), "__device(coord) ");

  if (!LE) {
    error(Args.back()->getBeginLoc(),
          "the consumer of executeWith must be a lambda expression written "
          "in the call, its last argument");
    return;
  }
  if (LE->getBeginLoc().isMacroID() || LE->getEndLoc().isMacroID()) {
    error(SM.getExpansionLoc(LE->getBeginLoc()),
          "cannot outline a consumer written through a macro; write the "
          "lambda in the executeWith call");
    return;
  }
  checkCaptures(LE);
  if (checkConsumer(LE, Element, Args.size()))
    Ctx.kernelSites().add({KernelKind::Consumer, Call, LE, QualType(), Name});
}

bool ChannelRule::checkConsumer(const LambdaExpr *LE, QualType Element,
                                unsigned Written) {
  const CXXMethodDecl *Op = LE->getCallOperator();
  const bool Dist = Written == 4;
  if (Element.isNull() || Op->getNumParams() != (Dist ? 3u : 2u)) {
    error(LE->getBeginLoc(),
          Dist ? "the consumer of executeWith(pred, range, darray, lambda) "
                 "must take an Index, its batch (std::vector<T> or Span<T>) "
                 "and a BoundDistArray (the batch and the BoundDistArray in "
                 "either order)"
               : "the consumer of executeWith(pred, range, lambda) must take "
                 "an Index and its batch (std::vector<T> or Span<T>)");
    return false;
  }
  bool Ok = true;
  const ParmVarDecl *Batch = consumerParams(Op).Batch;
  BatchSpelling Spelling = batchSpelling(Batch, Element);
  if (Spelling == BatchSpelling::Other) {
    error(Batch->getTypeSpecStartLoc(),
          "the consumer's batch parameter must be a std::vector<" +
              Element.getAsString() + "> or a Span<" + Element.getAsString() +
              "> (by value or const reference), not '" +
              Batch->getType().getAsString() +
              "': the rewritten consumer receives the batch as an hpp::Span");
    Ok = false;
  } else if (!Batch->getName().empty()) {
    for (const ChannelProblem &P :
         batchUseProblems(LE->getBody(), Batch, Spelling)) {
      error(P.Loc, P.Message);
      Ok = false;
    }
  }
  // A consumer that captures its own channel writes into it like any
  // producer (checkCaptures): the device runtime hands its values out in
  // the batches of the dispatch that launched it (hpp/channel.h).
  return Ok;
}

void ChannelRule::checkCaptures(const LambdaExpr *LE) {
  for (const Capture &C : collectCaptures(LE)) {
    if (!C.Var || !mentionsChannelType(C.Var->getType()) ||
        isDependentChannel(C.Var->getType()))
      continue; // A dependent one is reported where it is declared.
    std::string Var = "'" + C.Var->getNameAsString() + "'";
    // A Task's writes are lowered as a parallelFor's: the device runtime
    // launches the consumers they trigger behind the task (hpp/channel.h).
    if (C.Kind == CaptureKind::ChannelRef) {
      std::vector<ChannelProblem> Problems;
      writeBound(LE->getBody(), cast<VarDecl>(C.Var), &Problems);
      for (const ChannelProblem &P : Problems)
        reportOnce(P.Loc, P.Message);
    } else if (!C.ByRef) {
      reportOnce(C.Loc, Var + " of type '" + C.Var->getType().getAsString() +
                            "' is captured by value: device code reaches a "
                            "channel only through a by-reference capture of "
                            "the Channel itself ([&c]), whose writes the "
                            "rewriter counts");
    }
  }
}

void ChannelRule::checkHostCall(const CallExpr *Call, const FunctionDecl *Fn) {
  std::string Member = memberCall(Call)->Member;
  // executeWith has its own checks; size() is the host's (the values left
  // in the channel). In device code, and in a coordinator, the analyses of
  // the lambdas report the rest.
  if (Member == "executeWith" || Member == "size" || !Fn ||
      Coordinators.contains(Fn) || inDeviceCode(Fn))
    return;
  reportOnce(Call->getCallee()->getExprLoc(),
             "Channel::" + Member +
                 " in host code is not supported by the rewriter: on the "
                 "device runtime a channel is written by kernels (a "
                 "parallelFor or consumer that captures it by reference), "
                 "and the host has only its size() and executeWith");
}

void ChannelRule::onEndOfTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  for (const FunctionDecl *FD : Ctx.deviceGraph().functions()) {
    if (Coordinators.contains(FD) || !FD->hasBody() ||
        !isExpansionInRewrittenFile(SM, FD->getLocation()))
      continue;
    ChannelDecls Decls(Coordinators);
    for (const ParmVarDecl *P : FD->parameters())
      Decls.VisitVarDecl(const_cast<ParmVarDecl *>(P));
    Decls.TraverseStmt(FD->getBody());
    for (const VarDecl *VD : Decls.Found) {
      std::string What = "'" + VD->getNameAsString() + "' of type '" +
                         VD->getType().getAsString() + "'";
      if (isa<ParmVarDecl>(VD))
        reportOnce(VD->getLocation(),
                   What + " is a parameter of device code: the rewriter "
                          "counts a kernel's channel writes in the lambda "
                          "that captures the channel by reference (the "
                          "device runtime reserves each launch's storage "
                          "from that count); write into the channel there");
      else
        reportOnce(VD->getLocation(),
                   What + " is declared in device code: a channel is made "
                          "on the host, and a kernel reaches it through a "
                          "by-reference capture");
    }
  }
}

} // namespace rewrite
} // namespace hpp
