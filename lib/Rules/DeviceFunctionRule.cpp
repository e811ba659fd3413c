//===- DeviceFunctionRule.cpp - __device(hpp) functions -------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/DeviceFunctionRule.h"
#include "Analysis/DeviceCallGraph.h"
#include "Dialect/DeviceCode.h"
#include "Dialect/DialectMatchers.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <functional>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

namespace {
/// The annotation written on this very declaration (not inherited).
AST_MATCHER(FunctionDecl, hasOwnDeviceAnnotation) {
  const AnnotateAttr *A = getDeviceAnnotation(&Node);
  return A && llvm::is_contained(Node.attrs(), A) && !A->isInherited();
}

/// Selects the `__device(hpp)` text of the function or lambda bound to
/// \p ID; with \p WithSpace, also the blanks after it.
RangeSelector deviceAnnotation(std::string ID, bool WithSpace = false) {
  return [ID, WithSpace](const MatchFinder::MatchResult &R)
             -> llvm::Expected<CharSourceRange> {
    const auto *FD = R.Nodes.getNodeAs<FunctionDecl>(ID);
    if (const auto *LE = R.Nodes.getNodeAs<LambdaExpr>(ID))
      FD = LE->getCallOperator();
    CharSourceRange Range =
        annotationRange(getDeviceAnnotation(FD), *R.SourceManager);
    if (WithSpace) {
      Range = Lexer::getAsCharRange(Range, *R.SourceManager,
                                    R.Context->getLangOpts());
      const char *End = R.SourceManager->getCharacterData(Range.getEnd());
      unsigned N = 0;
      while (End[N] == ' ' || End[N] == '\t')
        ++N;
      Range.setEnd(Range.getEnd().getLocWithOffset(N));
    }
    return Range;
  };
}

/// The annotation follows the declarator (`int f(int x) __device(hpp)`):
/// nvcc rejects attributes there on a definition, so the qualifiers move to
/// the front.
AST_MATCHER(FunctionDecl, hasTrailingDeviceAnnotation) {
  const AnnotateAttr *A = getDeviceAnnotation(&Node);
  const SourceManager &SM = Finder->getASTContext().getSourceManager();
  return A && SM.isBeforeInTranslationUnit(Node.getLocation(),
                                           annotationRange(A, SM).getBegin());
}

/// The `__device(hpp)` text of the function bound to \p ID with the blanks
/// before it.
RangeSelector trailingAnnotation(std::string ID) {
  return [ID](const MatchFinder::MatchResult &R)
             -> llvm::Expected<CharSourceRange> {
    const auto *FD = R.Nodes.getNodeAs<FunctionDecl>(ID);
    CharSourceRange Range = Lexer::getAsCharRange(
        annotationRange(getDeviceAnnotation(FD), *R.SourceManager),
        *R.SourceManager, R.Context->getLangOpts());
    const char *Begin = R.SourceManager->getCharacterData(Range.getBegin());
    unsigned N = 0;
    while (N < 64 && (Begin[-int(N) - 1] == ' ' || Begin[-int(N) - 1] == '\t'))
      ++N;
    Range.setBegin(Range.getBegin().getLocWithOffset(-int(N)));
    return Range;
  };
}

/// The start of the declaration specifiers of the function bound to \p ID
/// (after any template header).
RangeSelector declarationStart(std::string ID) {
  return [ID](const MatchFinder::MatchResult &R)
             -> llvm::Expected<CharSourceRange> {
    const auto *FD = R.Nodes.getNodeAs<FunctionDecl>(ID);
    return CharSourceRange::getCharRange(FD->getInnerLocStart(),
                                         FD->getInnerLocStart());
  };
}

/// Where `__device(hpp)` is written: its `__device` token, or a location
/// in another macro's expansion when a macro writes it, in its body or in
/// an argument (a function declared inside a macro's argument is refused or
/// left as written, never edited: checkMacroFunction).
SourceLocation deviceToken(const AnnotateAttr *A, const SourceManager &SM) {
  SourceLocation Loc = A->getLocation();
  if (!Loc.isMacroID())
    return Loc;
  return SM.getImmediateExpansionRange(Loc).getBegin();
}

/// The function's own `__device(hpp)` is written by another macro
/// (`#define DEF(T) __device(hpp) T f(T x) {...}`): it cannot be edited.
AST_MATCHER(FunctionDecl, hasAnnotationInMacro) {
  const AnnotateAttr *A = getDeviceAnnotation(&Node);
  return A &&
         deviceToken(A, Finder->getASTContext().getSourceManager()).isMacroID();
}

/// The `__device(hpp)` of the lambda bound to "lambda", else of the
/// function bound to "fn", as spelled where it is written: inside a
/// macro's expansion when a macro writes it (the guard's target).
RangeSelector spelledAnnotation() {
  return
      [](const MatchFinder::MatchResult &R) -> llvm::Expected<CharSourceRange> {
        const auto *FD = R.Nodes.getNodeAs<FunctionDecl>("fn");
        if (const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda"))
          FD = LE->getCallOperator();
        const AnnotateAttr *A = FD ? getDeviceAnnotation(FD) : nullptr;
        if (!A)
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "no __device(hpp) bound");
        return annotationInvocation(A, *R.SourceManager);
      };
}

/// The declaration an edit to \p FD lands on (as DeviceCallGraph edits).
const FunctionDecl *pattern(const FunctionDecl *FD) {
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  return FD->getCanonicalDecl();
}
} // namespace

/// Lambdas in device code are device code already: drop their mark.
static RewriteRule dropNestedLambdaMarks() {
  return makeRule(lambdaExpr(isDeviceLambda()).bind("lambda"),
                  changeTo(deviceAnnotation("lambda", true), cat("")));
}

/// `__host__ __device__`, or `__device__` for a function that runs
/// collectives (nvcc rejects them in host-device functions).
static MatchConsumer<std::string> deviceQualifiers(RuleContext &Ctx) {
  return
      [&Ctx](const MatchFinder::MatchResult &R) -> llvm::Expected<std::string> {
        const auto *FD = R.Nodes.getNodeAs<FunctionDecl>("fn");
        return Ctx.deviceGraph().isDeviceOnly(FD) ? "__device__"
                                                  : "__host__ __device__";
      };
}

DeviceFunctionRule::DeviceFunctionRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(Name, Ctx,
                      {"the device annotation", spelledAnnotation()}) {
  auto Function = functionDecl(
      hasOwnDeviceAnnotation(), unless(hasAnnotationInMacro()),
      isExpansionInRewrittenFile(), unless(isTemplateInstantiation()),
      unless(cxxMethodDecl(ofClass(isLambda()))));
  // The function's own mark; both edits or none.
  addRule(applyFirst(
      {makeRule(
           functionDecl(Function, hasTrailingDeviceAnnotation()).bind("fn"),
           {changeTo(trailingAnnotation("fn"), cat("")),
            insertBefore(declarationStart("fn"),
                         cat(transformer::run(deviceQualifiers(Ctx)), " "))}),
       makeRule(Function.bind("fn"),
                changeTo(deviceAnnotation("fn"),
                         transformer::run(deviceQualifiers(Ctx))))}));
  // Then the marks of the lambdas inside it, or inside a parallelFor, Task
  // or consumer body (moved whole by the outliner).
  RewriteRule Lambdas = dropNestedLambdaMarks();
  addRule(applyFirst({descend(Function.bind("fn"), "fn", Lambdas),
                      descend(parallelForBody("body"), "body", Lambdas),
                      descend(taskBody("body"), "body", Lambdas),
                      descend(taskVarBody("body"), "body", Lambdas),
                      descend(consumerBody("body"), "body", Lambdas)}));
}

void DeviceFunctionRule::registerMatchers(MatchFinder &Finder) {
  TransformerRule::registerMatchers(Finder);
  Finder.addMatcher(
      lambdaExpr(isDeviceLambda(), isExpansionInRewrittenFile()).bind("lambda"),
      &Collect);
  Finder.addMatcher(parallelForCall(), &Collect);
  Finder.addMatcher(taskConstruction(), &Collect);
  Finder.addMatcher(taskVariable(), &Collect);
  Finder.addMatcher(channelExecuteWith(), &Collect);
  Finder.addMatcher(decl(hasDeviceAnnotation(), unless(functionDecl()),
                         isExpansionInRewrittenFile())
                        .bind("other"),
                    &Collect);
}

void DeviceFunctionRule::Collector::run(const MatchFinder::MatchResult &R) {
  if (R.Nodes.getNodeAs<CallExpr>("call") || R.Nodes.getNodeAs<Expr>("task") ||
      R.Nodes.getNodeAs<Expr>("execute")) {
    if (const auto *L = R.Nodes.getNodeAs<LambdaExpr>("lambda"))
      Rule.ParallelForLambdas.insert(
          R.SourceManager->getExpansionLoc(L->getBeginLoc()));
  } else if (const auto *L = R.Nodes.getNodeAs<LambdaExpr>("lambda"))
    Rule.Lambdas.push_back(L);
  else if (const auto *D = R.Nodes.getNodeAs<Decl>("other"))
    Rule.OtherDecls.push_back(D);
}

/// The functions of the main file whose own `__device(hpp)` a macro
/// writes, in \p DC. Walked by hand: a declaration whose name a macro
/// pastes (`sq_##T`) lies outside the matchers' traversal scope.
static void findMacroFunctions(const DeclContext *DC, const SourceManager &SM,
                               std::vector<const FunctionDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (D->isImplicit() || !isExpansionInRewrittenFile(SM, D->getBeginLoc()))
      continue;
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      D = FT->getTemplatedDecl();
    else if (const auto *CT = dyn_cast<ClassTemplateDecl>(D))
      D = CT->getTemplatedDecl();
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      const AnnotateAttr *A = getDeviceAnnotation(FD);
      if (A && llvm::is_contained(FD->attrs(), A) && !A->isInherited() &&
          deviceToken(A, SM).isMacroID())
        Out.push_back(FD);
      continue;
    }
    if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D))
      findMacroFunctions(cast<DeclContext>(D), SM, Out);
  }
}

void DeviceFunctionRule::finishTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  // Each check in source order.
  std::vector<std::pair<SourceLocation, std::function<void()>>> Checks;
  std::vector<const FunctionDecl *> MacroFunctions;
  findMacroFunctions(AST.getTranslationUnitDecl(), SM, MacroFunctions);
  for (const FunctionDecl *FD : MacroFunctions)
    Checks.emplace_back(FD->getBeginLoc(),
                        [this, FD, &AST] { checkMacroFunction(FD, AST); });
  findLambdaCalls(AST);
  for (const LambdaExpr *L : Lambdas)
    Checks.emplace_back(L->getBeginLoc(),
                        [this, L, &AST] { checkLambda(L, AST); });
  for (const Decl *D : OtherDecls)
    Checks.emplace_back(D->getBeginLoc(),
                        [this, D, &AST] { checkOtherDecl(D, AST); });
  std::stable_sort(
      Checks.begin(), Checks.end(), [&](const auto &A, const auto &B) {
        return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.first),
                                            SM.getExpansionLoc(B.first));
      });
  for (auto &[Loc, Check] : Checks)
    Check();
}

/// A function whose `__device(hpp)` a macro writes. Written in front of the
/// declaration, the annotation stays as it is: the runtime defines
/// `__device(hpp)` as `__host__ __device__` (runtime/hpp/annotations.h).
/// Written after the parameter list (nvcc rejects attributes there), or on
/// a function that must be `__device__`, it would have to be edited inside
/// the macro's expansion: an error.
void DeviceFunctionRule::checkMacroFunction(const FunctionDecl *FD,
                                            ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  const LangOptions &LO = AST.getLangOpts();
  const AnnotateAttr *A = getDeviceAnnotation(FD);
  SourceLocation Token = deviceToken(A, SM);
  SourceLocation Use = SM.getExpansionLoc(Token);
  SourceLocation Spelled = SM.getSpellingLoc(Token);
  StringRef Macro = Lexer::getImmediateMacroName(Token, SM, LO);
  std::string Fn = FD->getQualifiedNameAsString();

  // Is it in front of the parameter list? Compared where the two tokens
  // land in the expansion, not where they are spelled: the annotation may
  // come from the macro's body and the parameter list from an argument
  // (`#define DEF(sig, body) sig __device(hpp) body`), or both from one
  // argument, each order possible.
  bool Front = false;
  if (FunctionTypeLoc TL = FD->getFunctionTypeLoc())
    Front = SM.isBeforeInTranslationUnit(A->getLocation(), TL.getRParenLoc());
  if (!Front) {
    error(Use, "'" + Fn + "' is declared by the macro '" + Macro.str() +
                   "' with `__device(hpp)` where the tool cannot rewrite "
                   "it: after the parameter list, nvcc rejects it, and the "
                   "tool does not edit inside a macro's expansion");
    // The mark's own text: in the file when a macro's argument holds it
    // or a macro that is only the mark spells it (`#define DEV ...`).
    CharSourceRange Mark = annotationRange(A, SM);
    if (Mark.getBegin().isFileID())
      note(Mark.getBegin(), "put the mark in front of the return type "
                            "(`__device(hpp) T f(T x) { ... }`)");
    else
      note(Spelled,
           "put `__device(hpp)` in front of the return type inside "
           "the macro's definition (`__device(hpp) T f(T x) { ... }`)");
    return;
  }
  if (Ctx.deviceGraph().isDeviceOnly(FD)) {
    error(Use, "'" + Fn +
                   "' runs warp or work-group collectives, so it "
                   "must become `__device__`, but its `__device(hpp)` is "
                   "written by the macro '" +
                   Macro.str() + "', whose expansion the tool does not edit");
    note(Spelled, "define '" + Fn +
                      "' without the macro, or call the "
                      "collectives outside it");
  }
}

/// Which functions device code runs (the parallelFor bodies and the
/// `__device(hpp)` functions, with what they call), and where each is
/// first called; for checkLambda.
void DeviceFunctionRule::findLambdaCalls(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  const DeviceCallGraph &G = Ctx.deviceGraph();
  std::vector<const FunctionDecl *> Work;
  for (const FunctionDecl *F : G.functions()) {
    const auto *M = dyn_cast<CXXMethodDecl>(F);
    bool Root;
    if (M && M->getParent()->isLambda())
      Root = ParallelForLambdas.contains(
          SM.getExpansionLoc(M->getParent()->getLocation()));
    else
      Root = getDeviceAnnotation(F) != nullptr;
    if (Root && Reached.insert(F->getCanonicalDecl()).second)
      Work.push_back(F->getCanonicalDecl());
  }
  llvm::DenseMap<const FunctionDecl *,
                 std::vector<const DeviceCallGraph::Call *>>
      Out;
  for (const DeviceCallGraph::Call &C : G.calls())
    if (C.Caller)
      Out[C.Caller->getCanonicalDecl()].push_back(&C);
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    for (const DeviceCallGraph::Call *C : Out.lookup(F)) {
      const FunctionDecl *T = C->Callee->getCanonicalDecl();
      CalledAt.try_emplace(T, C->Loc);
      if (Reached.insert(T).second)
        Work.push_back(T);
    }
  }
}

/// A `__device(hpp)` lambda that no other case handles: outside a
/// parallelFor body and a `__device(hpp)` function. nvcc rejects an
/// execution space written on a lambda, and derives it from the enclosing
/// function: the mark is dropped. Device code cannot call such a lambda
/// when it is written in host code (that needs nvcc's --extended-lambda):
/// an error.
void DeviceFunctionRule::checkLambda(const LambdaExpr *L, ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(L->getBeginLoc());
  auto IsBody = [&](const CXXMethodDecl *M) {
    return ParallelForLambdas.contains(
        SM.getExpansionLoc(M->getParent()->getLocation()));
  };
  if (ParallelForLambdas.contains(At))
    return;
  // Inside a parallelFor body or a __device(hpp) function (not written
  // by a macro): dropNestedLambdaMarks drops the mark.
  const FunctionDecl *Enclosing = nullptr;
  for (const DeclContext *DC = L->getLambdaClass()->getDeclContext(); DC;
       DC = DC->getParent()) {
    const auto *F = dyn_cast<FunctionDecl>(DC);
    if (!F)
      continue;
    if (!Enclosing)
      Enclosing = F;
    const auto *M = dyn_cast<CXXMethodDecl>(F);
    if (M && M->getParent()->isLambda()) {
      if (IsBody(M))
        return;
      continue;
    }
    const FunctionDecl *P = F->getTemplateInstantiationPattern();
    const AnnotateAttr *A = getDeviceAnnotation(P ? P : F);
    if (A && !deviceToken(A, SM).isMacroID())
      return;
    break;
  }
  const CXXMethodDecl *Op = L->getCallOperator();
  const AnnotateAttr *A = getDeviceAnnotation(Op);
  CharSourceRange Range = annotationRange(A, SM);
  auto Call = CalledAt.find(Op->getCanonicalDecl());
  if (Call != CalledAt.end() &&
      !(Enclosing && Reached.contains(Enclosing->getCanonicalDecl()))) {
    error(Range.getBegin(),
          "this `__device(hpp)` lambda is written in host code and called "
          "in device code: nvcc compiles such a lambda for the device only "
          "with --extended-lambda, which the output does not require");
    note(Call->second, "called in device code here");
    note(Range.getBegin(),
         "make it a `__device(hpp)` function, or write the lambda inside "
         "the parallelFor body or the device function that calls it");
    return;
  }
  // Instantiations repeat the lambda.
  if (!DroppedLambdas.insert(At).second)
    return;
  // Written by a macro's own body (not a macro's argument, which the file
  // holds as written).
  if (Range.getBegin().isMacroID()) {
    error(SM.getExpansionLoc(Range.getBegin()),
          "this lambda's `__device(hpp)` is written inside a macro: nvcc "
          "rejects an execution space written on a lambda, and the tool "
          "does not edit inside a macro's expansion");
    note(SM.getSpellingLoc(deviceToken(A, SM)),
         "remove `__device(hpp)` from the lambda in the macro: a lambda "
         "runs where the function that holds it runs");
    return;
  }
  // Drop the mark and the blanks after it.
  CharSourceRange Text = Lexer::getAsCharRange(Range, SM, AST.getLangOpts());
  const char *End = SM.getCharacterData(Text.getEnd());
  unsigned N = 0;
  while (End[N] == ' ' || End[N] == '\t')
    ++N;
  Text.setEnd(Text.getEnd().getLocWithOffset(N));
  Ctx.Edits.replace(Text, "", Name);
}

/// `__device(hpp)` on a variable, a parameter, a member or a type.
void DeviceFunctionRule::checkOtherDecl(const Decl *D, ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  const AnnotateAttr *A = getDeviceAnnotation(D);
  if (!A || A->isInherited())
    return;
  SourceLocation At = annotationRange(A, SM).getBegin();
  if (isa<VarDecl>(D) && !isa<ParmVarDecl>(D)) {
    error(At, "`__device(hpp)` marks functions and lambdas as device code, "
              "not variables: device code reads no variable of the host's");
    note(At, "for a value device code reads, make it a constant (`constexpr "
             "int n = 3;`); for data it reads or writes, allocate it with "
             "hpp::allocate and capture or pass the Pointer");
    return;
  }
  error(At, "`__device(hpp)` marks functions and lambdas as device code; "
            "remove it from this declaration");
}

} // namespace rewrite
} // namespace hpp
