//===- CudaLaunchRule.cpp - kernel<<<...>>>(...) -> hpp::launchCuda -------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/CudaLaunchRule.h"
#include "Analysis/DeviceCodeMap.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace hpp {
namespace rewrite {

namespace {

const CUDAKernelCallExpr *launchOf(const MatchFinder::MatchResult &R) {
  return R.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
}

/// The configuration arguments the launch writes (grid and block, then
/// perhaps the shared bytes and the stream).
unsigned writtenConfig(const CUDAKernelCallExpr *Launch) {
  unsigned N = 0;
  for (const Expr *A : Launch->getConfig()->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      ++N;
  return N;
}

/// The kernel's template argument list when the launch deduces some of
/// them (`<float, 256>`), or empty when it writes them all or names no
/// template; nullopt when a deduced argument has no name the output could
/// write (a lambda's type, a type of an anonymous namespace).
std::optional<std::string> deducedArguments(const CUDAKernelCallExpr *Launch,
                                            const ASTContext &AST) {
  const FunctionDecl *FD = Launch->getDirectCallee();
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Launch->getCallee()->IgnoreParenImpCasts());
  const TemplateArgumentList *Args =
      FD ? FD->getTemplateSpecializationArgs() : nullptr;
  if (!Ref || !Args || Ref->getNumTemplateArgs() == Args->size())
    return std::string();
  PrintingPolicy Policy(AST.getLangOpts());
  Policy.SuppressTagKeyword = true;
  Policy.SuppressUnwrittenScope = false;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printTemplateArgumentList(OS, Args->asArray(), Policy);
  if (Text.find("(lambda") != std::string::npos ||
      Text.find("(anonymous") != std::string::npos ||
      Text.find("(unnamed") != std::string::npos)
    return std::nullopt;
  return Text;
}

/// The kernel's default arguments the launch takes (`<<<>>>` evaluates
/// them where the launch is; the output's call must write them): `, NULL`.
std::string defaultArguments(const CUDAKernelCallExpr *Launch,
                             const SourceManager &SM, const LangOptions &LO) {
  std::string Text;
  bool First = llvm::none_of(Launch->arguments(), [](const Expr *A) {
    return !isa<CXXDefaultArgExpr>(A);
  });
  for (const Expr *A : Launch->arguments())
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(A)) {
      Text += First ? "" : ", ";
      First = false;
      Text += Lexer::getSourceText(CharSourceRange::getTokenRange(
                                       D->getParam()->getDefaultArgRange()),
                                   SM, LO)
                  .str();
    }
  return Text;
}

/// `, 0, 0` for the omitted configuration, then `, ` before the first
/// argument.
std::string afterConfig(const CUDAKernelCallExpr *Launch) {
  std::string Text;
  for (unsigned I = writtenConfig(Launch); I < 4; ++I)
    Text += ", 0";
  if (llvm::any_of(Launch->arguments(),
                   [](const Expr *A) { return !isa<CXXDefaultArgExpr>(A); }))
    Text += ", ";
  return Text;
}

/// True when the output cannot name the kernel \p Launch starts: a
/// template whose arguments the launch deduces from arguments that depend
/// on the enclosing template's parameters.
bool unnameableKernel(const CUDAKernelCallExpr *Launch) {
  const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(
      Launch->getCallee()->IgnoreParenImpCasts());
  if (!Lookup || Lookup->hasExplicitTemplateArgs())
    return false;
  return llvm::any_of(Lookup->decls(), [](const NamedDecl *D) {
    return isa<FunctionTemplateDecl>(D->getUnderlyingDecl());
  });
}

/// Where the edits of a launch go, as file locations: where the launch is
/// written, or, when a macro's body writes the whole launch (the kernel,
/// `<<<`, `>>>` and the parentheses), in that macro's definition, which
/// every expansion shares.
struct Anchors {
  SourceLocation Callee;    ///< the kernel's first token
  SourceLocation AfterName; ///< just after the kernel's last token
  /// The kernel's written template argument list (`<256>`), if any.
  SourceLocation LAngle, RAngle;
  SourceLocation Open;  ///< `<<<`
  SourceLocation Close; ///< `>>>`
  SourceLocation Paren; ///< the `(` of the kernel's arguments
  SourceLocation RParen;
  bool InMacroBody = false;
};

/// The anchors of \p Launch, or nullopt when part of it comes from a
/// macro's arguments (or from two macros): no one text holds it.
std::optional<Anchors> anchorsOf(const CUDAKernelCallExpr *Launch,
                                 const SourceManager &SM,
                                 const LangOptions &LO) {
  const Expr *Callee = Launch->getCallee()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Callee);
  SourceLocation Raw[] = {Callee->getBeginLoc(),
                          Callee->getEndLoc(),
                          Ref ? Ref->getLAngleLoc() : SourceLocation(),
                          Ref ? Ref->getRAngleLoc() : SourceLocation(),
                          Launch->getConfig()->getBeginLoc(),
                          Launch->getConfig()->getRParenLoc(),
                          Launch->getRParenLoc()};
  bool Body = Raw[0].isMacroID();
  SourceLocation Mapped[7];
  FileID File;
  llvm::StringRef Macro;
  for (unsigned I = 0; I < 7; ++I) {
    SourceLocation L = Raw[I];
    if (L.isInvalid())
      continue;
    if (L.isMacroID() != Body ||
        (Body &&
         (!SM.isMacroBodyExpansion(L) ||
          Lexer::getImmediateMacroName(L, SM, LO) !=
              (Macro.empty() ? Macro = Lexer::getImmediateMacroName(L, SM, LO)
                             : Macro))))
      return std::nullopt;
    Mapped[I] = Body ? SM.getSpellingLoc(L) : L;
    if (File.isInvalid())
      File = SM.getFileID(Mapped[I]);
    else if (SM.getFileID(Mapped[I]) != File)
      return std::nullopt;
  }
  Anchors A;
  A.InMacroBody = Body;
  A.Callee = Mapped[0];
  A.AfterName =
      Mapped[1].getLocWithOffset(Lexer::MeasureTokenLength(Mapped[1], SM, LO));
  A.LAngle = Mapped[2];
  A.RAngle = Mapped[3];
  A.Open = Mapped[4];
  A.Close = Mapped[5];
  A.RParen = Mapped[6];
  std::optional<Token> Paren = Lexer::findNextToken(A.Close, SM, LO);
  if (!Paren || Paren->isNot(tok::l_paren))
    return std::nullopt;
  A.Paren = Paren->getLocation();
  return A;
}

/// Why the output cannot take \p Launch as `hpp::launchCuda`, if so.
std::optional<std::string> refusal(const CUDAKernelCallExpr *Launch,
                                   const DeviceCodeMap &Device,
                                   const ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  if (Launch->getBeginLoc().isMacroID() &&
      !anchorsOf(Launch, SM, AST.getLangOpts()))
    return "this launch is written by a macro, partly in its arguments (or "
           "by two macros): no one text holds it, and the tool edits only a "
           "macro's definition; write the whole launch in the macro's body, "
           "or expand the macro here by hand";
  if (Device.contains(Launch->getBeginLoc()))
    return "a kernel launched from device code (dynamic parallelism): HIP "
           "cannot launch from the device; launch it from the host";
  if (!deducedArguments(Launch, AST))
    return "a template argument the launch deduces for the kernel has no "
           "name the output could write (a lambda's type, or a type of an "
           "anonymous namespace): write the kernel's template arguments";
  if (const FunctionDecl *FD = Launch->getDirectCallee())
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
      for (const Expr *A : Launch->arguments())
        if (const auto *D = dyn_cast<CXXDefaultArgExpr>(A)) {
          unsigned I = D->getParam()->getFunctionScopeIndex();
          const ParmVarDecl *P =
              I < Pattern->getNumParams() ? Pattern->getParamDecl(I) : nullptr;
          if (!P || !P->hasDefaultArg() || P->hasUninstantiatedDefaultArg() ||
              !P->getDefaultArg() ||
              P->getDefaultArg()->isInstantiationDependent())
            return "the kernel's default argument for '" +
                   D->getParam()->getName().str() +
                   "' depends on its template parameters, and the output, "
                   "which must write it at the launch, cannot: pass it here";
        }
  if (unnameableKernel(Launch))
    return "the kernel template's arguments are deduced here from arguments "
           "that depend on the enclosing template's parameters: write them "
           "(`kernel<T><<<...>>>`), so that the output can name the kernel "
           "it launches";
  return std::nullopt;
}

/// The edits that turn \p Launch into a call of hpp::launchCuda.
SmallVector<transformer::Edit, 1> launchEdits(const CUDAKernelCallExpr *Launch,
                                              const Anchors &A,
                                              const ASTContext &AST) {
  auto Edit = [](CharSourceRange Range, std::string Text) {
    transformer::Edit E;
    E.Kind = transformer::EditKind::Range;
    E.Range = Range;
    E.Replacement = std::move(Text);
    return E;
  };
  const SourceManager &SM = AST.getSourceManager();
  SmallVector<transformer::Edit, 1> Edits;
  Edits.push_back(Edit(CharSourceRange::getCharRange(A.Callee, A.Callee),
                       "hpp::launchCuda("));
  std::string Args = deducedArguments(Launch, AST).value_or("");
  if (!Args.empty())
    Edits.push_back(
        Edit(A.LAngle.isValid()
                 ? CharSourceRange::getTokenRange(A.LAngle, A.RAngle)
                 : CharSourceRange::getCharRange(A.AfterName, A.AfterName),
             Args));
  Edits.push_back(Edit(
      CharSourceRange::getCharRange(A.Open, A.Open.getLocWithOffset(3)), ", "));
  Edits.push_back(
      Edit(CharSourceRange::getCharRange(A.Close, A.Paren.getLocWithOffset(1)),
           afterConfig(Launch)));
  std::string Defaults = defaultArguments(Launch, SM, AST.getLangOpts());
  if (!Defaults.empty())
    Edits.push_back(
        Edit(CharSourceRange::getCharRange(A.RParen, A.RParen), Defaults));
  return Edits;
}

/// The text of \p Edits, to compare two expansions of one macro.
std::string signature(const SmallVector<transformer::Edit, 1> &Edits,
                      const SourceManager &SM) {
  std::string S;
  for (const transformer::Edit &E : Edits)
    S += std::to_string(SM.getFileOffset(E.Range.getBegin())) + ":" +
         E.Replacement + "\n";
  return S;
}

/// A launch of a rewritten file, as written: matching as spelled skips
/// template instantiations without isInTemplateInstantiation(), whose
/// hasAncestor would build the parent map of the whole AST.
StatementMatcher launchAsWritten() {
  return traverse(
      TK_IgnoreUnlessSpelledInSource,
      cudaKernelCallExpr(isExpansionInRewrittenFile()).bind("launch"));
}

} // namespace

CudaLaunchRule::CudaLaunchRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(
          Name, Ctx,
          {"the kernel launch",
           // In a macro's body, the definition's text (anchorsOf).
           [](const MatchFinder::MatchResult &R) -> Expected<CharSourceRange> {
             const CUDAKernelCallExpr *L = launchOf(R);
             if (std::optional<Anchors> A =
                     anchorsOf(L, *R.SourceManager, R.Context->getLangOpts());
                 A && A->InMacroBody)
               return CharSourceRange::getCharRange(A->Callee, A->RParen);
             return CharSourceRange::getTokenRange(L->getSourceRange());
           },
           [this](const MatchFinder::MatchResult &R) { return leave(R); }}) {
  addRule(makeRule(
      launchAsWritten(),
      [](const MatchFinder::MatchResult &R)
          -> llvm::Expected<SmallVector<transformer::Edit, 1>> {
        const CUDAKernelCallExpr *L = launchOf(R);
        std::optional<Anchors> A =
            anchorsOf(L, *R.SourceManager, R.Context->getLangOpts());
        if (!A) // The guard reports it (it starts in a macro's expansion).
          return SmallVector<transformer::Edit, 1>();
        return launchEdits(L, *A, *R.Context);
      }));
}

bool CudaLaunchRule::leave(const MatchFinder::MatchResult &R) {
  const CUDAKernelCallExpr *L = launchOf(R);
  if (refusal(L, Ctx.deviceCode(), *R.Context))
    return true;
  std::optional<Anchors> A =
      anchorsOf(L, *R.SourceManager, R.Context->getLangOpts());
  if (!A || !A->InMacroBody)
    return false;
  // The definition is edited once, for every expansion: they must agree.
  std::string Sig = signature(launchEdits(L, *A, *R.Context), *R.SourceManager);
  auto [It, New] = MacroEdits.try_emplace(A->Callee.getRawEncoding(), Sig);
  if (!New && It->second != Sig)
    Disagreeing.insert(L);
  return !New;
}

void CudaLaunchRule::registerMatchers(MatchFinder &Finder) {
  TransformerRule::registerMatchers(Finder);
  Finder.addMatcher(launchAsWritten(), &Refusals);
}

void CudaLaunchRule::RefusalCallback::run(const MatchFinder::MatchResult &R) {
  const CUDAKernelCallExpr *Launch = launchOf(R);
  if (Self.Disagreeing.count(Launch)) {
    Self.error(R.SourceManager->getExpansionLoc(Launch->getBeginLoc()),
               "the macro that writes this launch is expanded into launches "
               "that need different rewrites (the kernel's deduced template "
               "arguments differ): its definition cannot hold both; write "
               "the kernel's template arguments in the macro");
    return;
  }
  if (std::optional<std::string> Why =
          refusal(Launch, Self.Ctx.deviceCode(), *R.Context))
    Self.error(R.SourceManager->getExpansionLoc(Launch->getBeginLoc()), *Why);
}

} // namespace rewrite
} // namespace hpp
