//===- HostCalls.cpp - The calls of host functions ------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/HostCalls.h"
#include "Framework/DynamicASTVisitor.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace hpp {
namespace rewrite {

const Expr *HostCall::argument(unsigned I) const {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (MD && MD->isExplicitObjectMemberFunction())
    return nullptr;
  // `obj(args)`, `a + b`: the object is the operator call's first argument.
  unsigned First = MD && MD->isInstance() && isa<CXXOperatorCallExpr>(Call);
  return I + First < Call->getNumArgs() ? Call->getArg(I + First) : nullptr;
}

namespace {

/// The call operator of the lambda whose closure has type \p T, or null.
const CXXMethodDecl *lambdaOperator(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isLambda() ? RD->getLambdaCallOperator() : nullptr;
}

/// \p CE may call an override of its callee: a virtual call, unqualified.
bool isVirtualCall(const CallExpr *CE, const FunctionDecl *Callee) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
  if (!MD || !MD->isVirtual() || MD->hasAttr<FinalAttr>() ||
      MD->getParent()->hasAttr<FinalAttr>())
    return false;
  const auto *ME = dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParens());
  return !ME || !ME->hasQualifier();
}

} // namespace

/// Collects the calls and the launches, and the functions and closures
/// named other than as a call's callee.
class HostCalls::Indexer : public DynamicASTVisitor {
public:
  Indexer(HostCalls &Out, ASTContext &Ctx) : Out(Out), Ctx(Ctx) {
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

  bool VisitCallExpr(CallExpr *CE) override {
    if (const auto *L = dyn_cast<CUDAKernelCallExpr>(CE)) {
      Out.Launches.push_back(L);
      return true;
    }
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD) {
      if (!isa<CXXPseudoDestructorExpr>(CE->getCallee()->IgnoreParens()))
        Out.Unfollowed.push_back(CE);
      return true;
    }
    Callees.insert(CE->getCallee()->IgnoreParenImpCasts());
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
        Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
      CallObjects.insert(Op->getArg(0)->IgnoreParenImpCasts());
    Out.Calls[FD->getCanonicalDecl()].push_back(
        {CE, Current && Current->isDependentContext()});
    const SourceManager &SM = Ctx.getSourceManager();
    if (isVirtualCall(CE, FD) ||
        (!FD->isDefined() && !FD->getBuiltinID() &&
         isWrittenInRewrittenFile(SM, SM.getExpansionLoc(FD->getLocation()))))
      Out.Unfollowed.push_back(CE);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      if (!Callees.count(DRE))
        Out.Taken.insert(FD->getCanonicalDecl());
    } else if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (const CXXMethodDecl *Op = lambdaOperator(VD->getType());
          Op && !CallObjects.count(DRE))
        Out.Taken.insert(Op->getCanonicalDecl());
    }
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) override {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
        MD && !Callees.count(ME))
      Out.Taken.insert(MD->getCanonicalDecl());
    return true;
  }

  /// `auto run = [&](int t) { ... };`: the closure's calls are `run(...)`.
  bool VisitVarDecl(VarDecl *VD) override {
    if (const Expr *Init = VD->getInit())
      if (const auto *LE = dyn_cast<LambdaExpr>(Init->IgnoreParenImpCasts())) {
        Bound.insert(LE);
        Out.ClosureVars[LE->getCallOperator()->getCanonicalDecl()] = VD;
      }
    return true;
  }

  /// A lambda neither held in a variable nor called where it is written
  /// is passed on.
  bool VisitLambdaExpr(LambdaExpr *LE) override {
    if (!Bound.count(LE) && !CallObjects.count(LE))
      Out.Taken.insert(LE->getCallOperator()->getCanonicalDecl());
    return true;
  }

private:
  HostCalls &Out;
  ASTContext &Ctx;
  const FunctionDecl *Current = nullptr;
  /// The callees of the calls seen, and the objects of `obj(args)`.
  llvm::SmallPtrSet<const Expr *, 32> Callees, CallObjects;
  llvm::SmallPtrSet<const LambdaExpr *, 4> Bound;
};

HostCalls::HostCalls(ASTContext &Ctx) { Indexer(*this, Ctx).TraverseAST(Ctx); }

HostCalls::~HostCalls() = default;

llvm::ArrayRef<HostCall> HostCalls::of(const FunctionDecl *Fn) const {
  auto It = Calls.find(Fn->getCanonicalDecl());
  return It == Calls.end() ? llvm::ArrayRef<HostCall>() : It->second;
}

std::string HostCalls::name(const FunctionDecl *Fn) const {
  Fn = Fn->getCanonicalDecl();
  const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
  if (MD && MD->getParent()->isLambda()) {
    auto It = ClosureVars.find(Fn);
    return It == ClosureVars.end()
               ? "the lambda"
               : "the lambda '" + It->second->getNameAsString() + "'";
  }
  if (MD && MD->getParent()->getIdentifier())
    return "'" + MD->getParent()->getNameAsString() +
           "::" + MD->getNameAsString() + "'";
  return "'" + Fn->getNameAsString() + "'";
}

WidthFact HostCalls::unseen(const FunctionDecl *Fn) const {
  Fn = Fn->getCanonicalDecl();
  SourceLocation At = Fn->getLocation();
  std::string Name = name(Fn);
  const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
  bool Lambda = MD && MD->getParent()->isLambda();
  if (MD && MD->isVirtual())
    return {At, Name + " is virtual: a call of a function it overrides may "
                       "reach it"};
  if (Taken.count(Fn))
    return {At, Lambda ? Name + " is passed on: it may be called where the "
                                "tool does not see the call"
                       : "the address of " + Name +
                             " is taken: it may be called through a pointer"};
  if (!Lambda &&
      (isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(Fn) ||
       Fn->isOverloadedOperator()))
    return {At, Name + " may be called where the tool does not see the call"};
  if (Fn->isExternallyVisible() && !Fn->isMain())
    return {At, Name + " has external linkage: another source may call it "
                       "(`static` or an unnamed namespace keeps it to this "
                       "file)"};
  for (const HostCall &C : of(Fn))
    if (!C.InPattern)
      return {};
  return {At, "nothing in this file calls " + Name};
}

} // namespace rewrite
} // namespace hpp
