//===- HostWarpSizeRule.cpp - MVECTOR_SIZE / warpSize in host code --------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/HostWarpSizeRule.h"
#include "Core/DeviceCode.h"
#include "Core/WidthUses.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

/// The host's run-time width: the current device's.
static constexpr llvm::StringLiteral RunTimeWidth =
    "hpp::getWarpSize(hpp::getDevice())";

void HostWarpSizeRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(functionDecl(isExpansionInMainFile(), isDefinition(),
                                 unless(hasDeviceAnnotation()),
                                 unless(isTemplateInstantiation()),
                                 unless(cxxMethodDecl(ofClass(isLambda()))))
                        .bind("fn"),
                    this);
}

/// \p Call's text with every width use inside it replaced: \p Width for
/// the dispatched template arguments, the run-time width for the others.
static std::string instantiate(StringRef Text, unsigned Begin,
                               llvm::ArrayRef<const WidthUse *> Uses,
                               StringRef Width, const SourceManager &SM) {
  std::string Out;
  unsigned Pos = 0;
  for (const WidthUse *U : Uses) {
    unsigned B = SM.getFileOffset(U->Range.getBegin()) - Begin;
    unsigned E = SM.getFileOffset(U->Range.getEnd()) - Begin;
    if (U->Range.isTokenRange())
      E += Lexer::MeasureTokenLength(U->Range.getEnd(), SM, LangOptions());
    Out += Text.substr(Pos, B - Pos);
    Out +=
        U->Context == WidthUse::DispatchArg ? Width : StringRef(RunTimeWidth);
    Pos = E;
  }
  Out += Text.substr(Pos);
  return Out;
}

void HostWarpSizeRule::run(const MatchFinder::MatchResult &R) {
  const auto *Fn = R.Nodes.getNodeAs<FunctionDecl>("fn");
  ASTContext &AST = *R.Context;
  const SourceManager &SM = AST.getSourceManager();
  std::vector<WidthUse> Uses = findHostWidthUses(Fn->getBody(), AST);
  if (Uses.empty())
    return;

  // Group the uses by the call statement they dispatch.
  llvm::DenseMap<const Expr *, std::vector<const WidthUse *>> Dispatched;
  for (const WidthUse &U : Uses)
    if (U.Context == WidthUse::DispatchArg)
      Dispatched[U.Stmt];
  auto InDispatch = [&](const WidthUse &U) -> const Expr * {
    for (auto &[Stmt, List] : Dispatched) {
      SourceRange S = Stmt->getSourceRange();
      if (!SM.isBeforeInTranslationUnit(U.Range.getBegin(), S.getBegin()) &&
          !SM.isBeforeInTranslationUnit(S.getEnd(), U.Range.getBegin()))
        return Stmt;
    }
    return nullptr;
  };

  for (const WidthUse &U : Uses) {
    if (const Expr *Stmt = InDispatch(U)) {
      Dispatched[Stmt].push_back(&U);
      continue;
    }
    if (U.Context == WidthUse::RunTime) {
      Ctx.Edits.replace(U.Range, RunTimeWidth, Name);
      continue;
    }
    error(U.Range.getBegin(),
          "the mvector width is a run-time value in host code (HIP has no "
          "compile-time wavefront size), so it cannot be a constant here");
    note(U.Range.getBegin(),
         "pass it as an explicit template argument of a call statement "
         "(`f<MVECTOR_SIZE>(args);` becomes a 32/64 dispatch), or use "
         "MVECTOR_MAX / MVECTOR_MIN for storage bounds");
  }

  for (auto &[Call, List] : Dispatched) {
    CharSourceRange Range =
        CharSourceRange::getTokenRange(Call->getSourceRange());
    if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID()) {
      error(Call->getBeginLoc(), "cannot dispatch on the mvector width in a "
                                 "call written through a macro");
      continue;
    }
    llvm::sort(List, [&](const WidthUse *A, const WidthUse *B) {
      return SM.getFileOffset(A->Range.getBegin()) <
             SM.getFileOffset(B->Range.getBegin());
    });
    StringRef Text = Lexer::getSourceText(Range, SM, AST.getLangOpts());
    unsigned Begin = SM.getFileOffset(Range.getBegin());
    std::string Indent(SM.getSpellingColumnNumber(Range.getBegin()) - 1, ' ');
    std::string C32 = instantiate(Text, Begin, List, "32", SM);
    std::string C64 = instantiate(Text, Begin, List, "64", SM);
    std::string Out = "if constexpr (hpp::getMaxWarpSize() == 32)\n" + Indent +
                      "  " + C32 + ";\n" + Indent + "else if (" +
                      RunTimeWidth.str() + " == 32)\n" + Indent + "  " + C32 +
                      ";\n" + Indent + "else\n" + Indent + "  " + C64;
    Ctx.Edits.replace(Range, Out, Name);
  }
}

} // namespace rewrite
} // namespace hpp
