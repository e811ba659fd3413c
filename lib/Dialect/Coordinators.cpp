//===- Coordinators.cpp - The coordinator of a channel --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Coordinators.h"
#include "Dialect/Channels.h"
#include "Dialect/DeviceCode.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// Whether a coordinator may call \p FD.
bool callableFromCoordinator(const FunctionDecl *FD) {
  return getDeviceAnnotation(FD) || FD->isConstexpr() ||
         FD->getBuiltinID() != 0 || FD->isImplicit() ||
         (FD->isDefaulted() && FD->isTrivial());
}

/// Reports each call in \p S that a coordinator may not make.
void coordinatorCalls(const Stmt *S, const ParmVarDecl *Param,
                      std::vector<ChannelProblem> &Out) {
  if (!S)
    return;
  const FunctionDecl *Callee = nullptr;
  SourceLocation Loc;
  bool Indirect = false;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    std::optional<MemberCall> MC = memberCall(Call);
    Loc = Call->getCallee() ? Call->getCallee()->getExprLoc()
                            : Call->getBeginLoc();
    if (!(MC && MC->Member == "size" && Param &&
          namesVariable(MC->Object, Param))) {
      Callee = Call->getDirectCallee();
      Indirect = !Callee && !Call->isTypeDependent();
    }
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    if (!CE->getConstructor()->isTrivial())
      Callee = CE->getConstructor();
    Loc = CE->getBeginLoc();
  }
  const std::string Rule =
      "a coordinator may call only its parameter's size(), constexpr "
      "functions and __device(hpp) functions: it is a pure function of the "
      "channel's size, which the runtime evaluates ahead of the launches";
  if (Indirect)
    Out.push_back({Loc, "the coordinator calls through a pointer; " + Rule});
  else if (Callee && !callableFromCoordinator(Callee))
    Out.push_back({Loc, "the coordinator calls '" +
                            Callee->getQualifiedNameAsString() +
                            "', which is not device code; " + Rule});
  for (const Stmt *C : S->children())
    coordinatorCalls(C, Param, Out);
}

/// Reports the state \p S keeps or reads: a static or thread-local
/// variable, a variable of the program that is not a constant, memory
/// behind a pointer (an overloaded operator, `p[i]` on a Pointer, is a call,
/// which coordinatorCalls reports). A coordinator that has state means
/// something else evaluated per size ahead of the launches than after each
/// write.
void coordinatorState(const Stmt *S, const ParmVarDecl *Param,
                      std::vector<ChannelProblem> &Out) {
  if (!S)
    return;
  const std::string Why =
      ": a coordinator is a pure function of c->size() and of what it "
      "captures by value, which the runtime evaluates once per size ahead "
      "of the launches, not after each write";
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (VD->isStaticLocal() || VD->getTLSKind() != VarDecl::TLS_None)
          Out.push_back({VD->getLocation(),
                         "the coordinator declares the " +
                             std::string(VD->getTLSKind() != VarDecl::TLS_None
                                             ? "thread-local"
                                             : "static") +
                             " variable '" + VD->getNameAsString() +
                             "', state kept between evaluations" + Why});
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->hasGlobalStorage() && !VD->isStaticLocal() &&
        !VD->isConstexpr() && !VD->getType().isConstQualified())
      Out.push_back({DRE->getLocation(),
                     "the coordinator reads '" + VD->getNameAsString() +
                         "', a variable the program may change" + Why});
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_Deref &&
        !(Param && namesVariable(UO->getSubExpr(), Param)))
      Out.push_back({UO->getOperatorLoc(),
                     "the coordinator reads memory through a pointer" + Why});
  } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
    if (AS->getBase()->IgnoreImpCasts()->getType()->isPointerType())
      Out.push_back({AS->getExprLoc(),
                     "the coordinator reads memory through a pointer" + Why});
  } else if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    // c->size() is the coordinator's one way into its channel.
    if (ME->isArrow() && !(Param && namesVariable(ME->getBase(), Param)))
      Out.push_back({ME->getOperatorLoc(),
                     "the coordinator reads memory through a pointer" + Why});
  }
  for (const Stmt *C : S->children())
    coordinatorState(C, Param, Out);
}

} // namespace

std::vector<ChannelProblem> coordinatorProblems(const Expr *Coord,
                                                QualType Element) {
  std::vector<ChannelProblem> Out;
  std::string Spelled =
      "Channel<" +
      (Element.isNull() ? std::string("T") : Element.getAsString()) + "> *";
  const auto *LE = dyn_cast<LambdaExpr>(Coord->IgnoreUnlessSpelledInSource());
  if (!LE) {
    Out.push_back({Coord->getBeginLoc(),
                   "the coordinator of executeWith must be a lambda written "
                   "in the call, `[=](" +
                       Spelled +
                       "c) -> bool __device(coord) { ... }`: the rewriter "
                       "checks that it is a pure function of c->size()"});
    return Out;
  }
  for (const LambdaCapture &C : LE->captures()) {
    if (C.capturesThis())
      Out.push_back({C.getLocation(),
                     "the coordinator captures 'this': a coordinator is a "
                     "pure function of c->size() and of what it captures by "
                     "value; copy the members it needs into locals"});
    else if (C.getCaptureKind() == LCK_ByRef && C.capturesVariable())
      Out.push_back({C.getLocation(),
                     "the coordinator captures '" +
                         C.getCapturedVar()->getNameAsString() +
                         "' by reference, which is host state: a coordinator "
                         "is a pure function of c->size() and of what it "
                         "captures by value (the runtime evaluates it ahead "
                         "of the launches); capture it by value"});
  }
  const CXXMethodDecl *Op = LE->getCallOperator();
  const ParmVarDecl *Param = Op->getNumParams() ? Op->getParamDecl(0) : nullptr;
  QualType PT = Param ? Param->getType() : QualType();
  bool Good = Op->getNumParams() == 1 && !PT->isDependentType() &&
              PT->isPointerType() && isChannelType(PT->getPointeeType()) &&
              !Element.isNull() &&
              Op->getASTContext().hasSameUnqualifiedType(
                  channelElementType(PT->getPointeeType()), Element);
  if (!Good)
    Out.push_back(
        {Param ? Param->getTypeSpecStartLoc() : LE->getBeginLoc(),
         "the coordinator's parameter must be '" + Spelled +
             "', a pointer to this channel's type" +
             (Param ? ", not '" + PT.getAsString() + "'" : std::string())});
  if (LE->isMutable())
    Out.push_back({LE->getBeginLoc(),
                   "the coordinator is 'mutable': its captures are state that "
                   "changes between evaluations, but a coordinator is a pure "
                   "function of c->size() and of what it captures by value, "
                   "which the runtime evaluates once per size ahead of the "
                   "launches, not after each write; remove 'mutable'"});
  coordinatorCalls(LE->getBody(), Good ? Param : nullptr, Out);
  coordinatorState(LE->getBody(), Good ? Param : nullptr, Out);
  return Out;
}

bool hasCoordinatorMark(const LambdaExpr *LE, const SourceManager &SM,
                        const LangOptions &LO) {
  if (getDeviceAnnotation(LE->getCallOperator(), "coord"))
    return true;
  // `-> bool __device(coord)`: dropped from the AST; read the text between
  // the introducer and the body (in a macro: where it is spelled).
  const CompoundStmt *Body = LE->getCompoundStmtBody();
  if (!Body)
    return false;
  SourceLocation From = SM.getSpellingLoc(LE->getIntroducerRange().getEnd());
  SourceLocation To = SM.getSpellingLoc(Body->getLBracLoc());
  if (SM.getFileID(From) != SM.getFileID(To) ||
      !SM.isBeforeInTranslationUnit(From, To))
    return false;
  // The raw lexer needs a null-terminated buffer.
  std::string Text =
      Lexer::getSourceText(CharSourceRange::getCharRange(From, To), SM, LO)
          .str();
  Lexer Raw(SourceLocation(), LO, Text.c_str(), Text.c_str(),
            Text.c_str() + Text.size());
  llvm::SmallVector<std::string, 8> Tokens;
  Token Tok;
  for (bool End = false; !End;) {
    End = Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      break;
    Tokens.push_back(Tok.is(tok::raw_identifier)
                         ? Tok.getRawIdentifier().str()
                         : std::string(tok::getTokenName(Tok.getKind())));
  }
  for (size_t I = 0; I + 3 < Tokens.size(); ++I)
    if (Tokens[I] == "__device" && Tokens[I + 1] == "l_paren" &&
        Tokens[I + 2] == "coord" && Tokens[I + 3] == "r_paren")
      return true;
  return false;
}

} // namespace rewrite
} // namespace hpp
