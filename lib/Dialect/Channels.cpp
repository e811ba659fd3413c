//===- Channels.cpp - Channel producers, consumers, coordinators ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Channels.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

/// The specialization \p T (references stripped) names when it is a
/// concrete `::<Namespace>::<Name><...>`, or null.
static const ClassTemplateSpecializationDecl *
specializationOf(QualType T, llvm::StringRef QualifiedName) {
  if (T.isNull() || T->isDependentType())
    return nullptr;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getSpecializedTemplate()->getQualifiedNameAsString() !=
                   QualifiedName)
    return nullptr;
  return Spec;
}

bool isChannelType(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    if (const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl())
      return TD->getQualifiedNameAsString() == "hpp::Channel";
  return specializationOf(T, "hpp::Channel") != nullptr;
}

bool mentionsChannelType(QualType T) {
  while (!T.isNull()) {
    T = T.getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    else if (T->isArrayType())
      T = QualType(T->getArrayElementTypeNoTypeQual(), 0);
    else
      break;
  }
  return isChannelType(T);
}

QualType channelElementType(QualType T) {
  if (T.isNull() || T->isDependentType())
    return QualType();
  T = T.getNonReferenceType();
  // As written where the type spells it (an alias stays an alias).
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    if (isChannelType(T) && TST->template_arguments().size() == 1 &&
        TST->template_arguments()[0].getKind() == TemplateArgument::Type)
      return TST->template_arguments()[0].getAsType();
  const ClassTemplateSpecializationDecl *Spec =
      specializationOf(T, "hpp::Channel");
  if (!Spec || Spec->getTemplateArgs().size() != 1)
    return QualType();
  return Spec->getTemplateArgs()[0].getAsType();
}

bool isConsumerKernelCall(const Expr *E) {
  const auto *Call =
      E ? dyn_cast<CallExpr>(E->IgnoreUnlessSpelledInSource()) : nullptr;
  if (!Call)
    return false;
  constexpr llvm::StringLiteral Name = "hpp::detail::consumerKernel";
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD->getQualifiedNameAsString() == Name;
  // In a template: an unresolved call.
  if (const auto *UL = dyn_cast<UnresolvedLookupExpr>(
          Call->getCallee()->IgnoreUnlessSpelledInSource()))
    return llvm::any_of(UL->decls(), [&](const NamedDecl *D) {
      return D->getQualifiedNameAsString() == Name;
    });
  return false;
}

std::optional<MemberCall> memberCall(const Stmt *S) {
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call || !Call->getCallee())
    return std::nullopt;
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    return MemberCall{Call, ME->getBase(),
                      ME->getMemberNameInfo().getAsString()};
  if (const auto *UM = dyn_cast<UnresolvedMemberExpr>(Callee))
    if (!UM->isImplicitAccess())
      return MemberCall{Call, UM->getBase(), UM->getMemberName().getAsString()};
  if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    if (!DM->isImplicitAccess())
      return MemberCall{Call, DM->getBase(), DM->getMember().getAsString()};
  return std::nullopt;
}

bool namesVariable(const Expr *E, const ValueDecl *VD) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE && DRE->getDecl() == VD;
}

const Expr *channelMemberObject(const Stmt *S, llvm::StringRef Member) {
  std::optional<MemberCall> MC = memberCall(S);
  if (!MC || (!Member.empty() && MC->Member != Member))
    return nullptr;
  QualType T = MC->Object->getType();
  if (T.isNull() || T->isDependentType())
    return nullptr;
  if (T->isPointerType())
    T = T->getPointeeType();
  return isChannelType(T) ? MC->Object : nullptr;
}

namespace {

/// The first reference to \p VD in \p S, or an invalid location.
SourceLocation firstUse(const Stmt *S, const ValueDecl *VD) {
  if (!S)
    return SourceLocation();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD)
    return DRE->getLocation();
  for (const Stmt *C : S->children())
    if (SourceLocation L = firstUse(C, VD); L.isValid())
      return L;
  return SourceLocation();
}

/// Why the runtime needs the bound, for the end of the messages.
constexpr llvm::StringLiteral WhyBound =
    "the device runtime reserves each launch's channel storage from the "
    "most values one work-item writes, which the rewriter counts";

/// Counts the writes of one work-item (writeBound).
class WriteCounter {
public:
  WriteCounter(const VarDecl *Chan, std::vector<ChannelProblem> &Out)
      : Chan(Chan), Out(Out) {}

  unsigned count(const Stmt *S, bool InLoop);
  SourceLocation Goto;
  bool Failed = false;

  void problem(SourceLocation Loc, std::string Message) {
    Failed = true;
    if (Reported.insert(Loc).second)
      Out.push_back({Loc, std::move(Message)});
  }

private:
  std::string name() const { return "'" + Chan->getNameAsString() + "'"; }

  const VarDecl *Chan;
  std::vector<ChannelProblem> &Out;
  llvm::DenseSet<SourceLocation> Reported;
};

unsigned WriteCounter::count(const Stmt *S, bool InLoop) {
  if (!S)
    return 0;
  if (std::optional<MemberCall> MC = memberCall(S);
      MC && namesVariable(MC->Object, Chan)) {
    unsigned N = 0;
    for (const Expr *A : MC->Call->arguments())
      N += count(A, InLoop);
    SourceLocation Loc = MC->Call->getCallee()->getExprLoc();
    if (MC->Member == "size")
      return N;
    if (MC->Member != "write") {
      problem(Loc, "'" + Chan->getNameAsString() + "." + MC->Member +
                       "' in device code: a kernel may only call write(v) "
                       "and size() on a channel");
      return N;
    }
    if (InLoop)
      problem(Loc, "a write into " + name() +
                       " inside a loop: the rewriter cannot bound how many "
                       "values one work-item writes, and " +
                       WhyBound.str() +
                       "; write a fixed number of times, outside loops");
    return N + 1;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
      DRE && DRE->getDecl() == Chan) {
    problem(DRE->getLocation(),
            "this use of the channel " + name() +
                " is not supported in device code: a kernel may only call " +
                Chan->getNameAsString() + ".write(v) and " +
                Chan->getNameAsString() + ".size() (" + WhyBound.str() +
                ", and cannot follow the channel elsewhere)");
    return 0;
  }
  if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
    // The use in its body, or an init-capture's.
    SourceLocation Use = firstUse(LE->getBody(), Chan);
    if (Use.isInvalid())
      Use = firstUse(LE, Chan);
    if (Use.isValid())
      problem(Use, "a lambda inside the kernel uses the channel " + name() +
                       ": the rewriter cannot count how often it writes, "
                       "and " +
                       WhyBound.str() + "; write in the kernel's own body");
    return 0;
  }
  if (isa<GotoStmt, IndirectGotoStmt>(S)) {
    if (Goto.isInvalid())
      Goto = S->getBeginLoc();
    return 0;
  }
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    InLoop = true;
  if (const auto *If = dyn_cast<IfStmt>(S))
    return count(If->getInit(), InLoop) +
           count(If->getConditionVariableDeclStmt(), InLoop) +
           count(If->getCond(), InLoop) +
           std::max(count(If->getThen(), InLoop), count(If->getElse(), InLoop));
  if (const auto *CO = dyn_cast<ConditionalOperator>(S))
    return count(CO->getCond(), InLoop) +
           std::max(count(CO->getTrueExpr(), InLoop),
                    count(CO->getFalseExpr(), InLoop));
  // Everything else (a switch too: falling through, its cases add up).
  unsigned N = 0;
  for (const Stmt *C : S->children())
    N += count(C, InLoop);
  return N;
}

} // namespace

std::optional<unsigned> writeBound(const Stmt *Body, const VarDecl *Chan,
                                   std::vector<ChannelProblem> *Problems) {
  std::vector<ChannelProblem> Ignored;
  WriteCounter Counter(Chan, Problems ? *Problems : Ignored);
  unsigned N = Counter.count(Body, false);
  if (N && Counter.Goto.isValid())
    Counter.problem(Counter.Goto,
                    "the kernel writes into '" + Chan->getNameAsString() +
                        "' and uses goto, which can run a write again: the "
                        "rewriter cannot bound how many values one "
                        "work-item writes, and " +
                        WhyBound.str());
  if (Counter.Failed)
    return std::nullopt;
  return N;
}

ConsumerParams consumerParams(const CXXMethodDecl *Op) {
  ConsumerParams Out;
  if (!Op || Op->getNumParams() < 2)
    return Out;
  Out.Batch = Op->getParamDecl(1);
  if (Op->getNumParams() < 3)
    return Out;
  Out.Bound = Op->getParamDecl(2);
  // The paper's order: the BoundDistArray first. (A dependent type is
  // neither: the spec's order is assumed.)
  auto IsBound = [](const ParmVarDecl *P) {
    return specializationOf(P->getType(), "hpp::BoundDistArray") != nullptr;
  };
  if (IsBound(Out.Batch) && !IsBound(Out.Bound))
    std::swap(Out.Batch, Out.Bound);
  return Out;
}

BatchSpelling batchSpelling(const ParmVarDecl *P, QualType Element) {
  QualType T = P->getType();
  if (T->isDependentType() || Element.isNull())
    return BatchSpelling::Other;
  bool Ref = T->isReferenceType();
  QualType U = T.getNonReferenceType();
  bool Const = U.isConstQualified();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      U->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type ||
      !Spec->getASTContext().hasSameUnqualifiedType(
          Spec->getTemplateArgs()[0].getAsType(), Element))
    return BatchSpelling::Other;
  if (Spec->getSpecializedTemplate()->getQualifiedNameAsString() == "hpp::Span")
    return Ref && !Const && !T->isRValueReferenceType() ? BatchSpelling::Other
                                                        : BatchSpelling::Span;
  if (Spec->getName() != "vector" || !Spec->isInStdNamespace())
    return BatchSpelling::Other;
  if (Ref && !Const)
    return BatchSpelling::Other;
  return Const ? BatchSpelling::VectorView : BatchSpelling::VectorCopy;
}

} // namespace rewrite
} // namespace hpp
