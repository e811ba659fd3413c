//===- ImplicitDeviceFunctionRule.cpp -------------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/ImplicitDeviceFunctionRule.h"
#include "Analysis/DeviceCallGraph.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

void ImplicitDeviceFunctionRule::onEndOfTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  llvm::DenseSet<unsigned> Done;
  for (const FunctionDecl *F : Ctx.deviceGraph().functions()) {
    if (DeviceCallGraph::classify(F, SM) != CalleeKind::Implicit)
      continue;
    if (const auto *M = dyn_cast<CXXMethodDecl>(F))
      if (M->getParent()->isLambda())
        continue; // Lambdas in device code are device code already.
    const FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
    if (!Pattern)
      Pattern = F;
    const char *Qualifiers = Ctx.deviceGraph().isDeviceOnly(F)
                                 ? "__device__ "
                                 : "__host__ __device__ ";
    bool Marked = false;
    for (const FunctionDecl *R : Pattern->redecls()) {
      if (R->isImplicit())
        continue;
      SourceLocation Loc = insertionPoint(R, SM, AST.getLangOpts());
      if (Loc.isInvalid() || !isWrittenInRewrittenFile(SM, Loc))
        continue;
      Marked = true;
      if (Done.insert(Loc.getRawEncoding()).second)
        Ctx.Edits.insert(Loc, Qualifiers, Name);
    }
    if (!Marked && Reported.insert(Pattern->getCanonicalDecl()).second)
      reportUnmarkable(Pattern, SM);
  }
}

SourceLocation ImplicitDeviceFunctionRule::insertionPoint(
    const FunctionDecl *R, const SourceManager &SM, const LangOptions &LO) {
  SourceLocation Loc = R->getInnerLocStart();
  if (!Loc.isMacroID())
    return Loc;
  // A function a macro defines (`#define DEF(name) inline int name(...)
  // {...}`): the qualifiers go before the macro's invocation when the
  // invocation is this declaration and nothing else.
  SourceLocation Begin = R->getOuterLocStart(), End = R->getEndLoc();
  if (!Begin.isMacroID() || !End.isMacroID())
    return SourceLocation();
  SourceLocation MacroBegin, MacroEnd;
  if (!Lexer::isAtStartOfMacroExpansion(Begin, SM, LO, &MacroBegin) ||
      !Lexer::isAtEndOfMacroExpansion(End, SM, LO, &MacroEnd))
    return SourceLocation();
  CharSourceRange Invocation = SM.getExpansionRange(Begin);
  if (SM.getExpansionRange(End).getAsRange() != Invocation.getAsRange() ||
      MacroBegin != Invocation.getBegin())
    return SourceLocation();
  return MacroBegin;
}

void ImplicitDeviceFunctionRule::reportUnmarkable(const FunctionDecl *Pattern,
                                                  const SourceManager &SM) {
  // At each call of device code that reaches it.
  std::string Name = Pattern->getQualifiedNameAsString();
  const FunctionDecl *Def = Pattern->getDefinition();
  const FunctionDecl *Where = Def ? Def : Pattern;
  SourceLocation DeclLoc = Where->getLocation();
  bool InMacro = DeclLoc.isMacroID();
  for (const DeviceCallGraph::Call &C : Ctx.deviceGraph().calls()) {
    const FunctionDecl *P = C.Callee->getTemplateInstantiationPattern();
    if ((P ? P : C.Callee)->getCanonicalDecl() != Pattern->getCanonicalDecl())
      continue;
    if (InMacro)
      error(C.Loc, "device code calls '" + Name +
                       "', which a macro defines together with other code; "
                       "the rewrite cannot mark it __host__ __device__ "
                       "without editing inside the macro");
    else
      error(C.Loc, "device code calls '" + Name +
                       "', defined in a header the rewrite does not "
                       "rewrite; nvcc would compile it for the host only");
    note(SM.getExpansionLoc(DeclLoc),
         InMacro ? "'" + Name + "' is defined here, through the macro '" +
                       Lexer::getImmediateMacroName(
                           DeclLoc, SM, Pattern->getASTContext().getLangOpts())
                           .str() +
                       "'; define it outside the macro, or mark it "
                       "__device(hpp) in the macro's definition"
                 : "'" + Name +
                       "' is defined here; mark it __device(hpp) in the "
                       "header");
  }
}

} // namespace rewrite
} // namespace hpp
