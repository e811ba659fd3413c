//===- DeviceFunctionRule.cpp - __device(hpp) functions -------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/DeviceFunctionRule.h"
#include "Core/DeviceCallGraph.h"
#include "Core/DeviceCode.h"
#include "Core/DialectMatchers.h"

#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"

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

/// A lambda marked __device(hpp).
AST_MATCHER(LambdaExpr, isDeviceLambda) {
  return getDeviceAnnotation(Node.getCallOperator()) != nullptr;
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
    : TransformerRule(
          Name, Ctx,
          applyFirst(
              {makeRule(
                   functionDecl(hasOwnDeviceAnnotation(),
                                hasTrailingDeviceAnnotation(),
                                isExpansionInMainFile(),
                                unless(isTemplateInstantiation()),
                                unless(cxxMethodDecl(ofClass(isLambda()))))
                       .bind("fn"),
                   flatten(
                       changeTo(trailingAnnotation("fn"), cat("")),
                       insertBefore(
                           declarationStart("fn"),
                           cat(transformer::run(deviceQualifiers(Ctx)), " ")),
                       rewriteDescendants("fn", dropNestedLambdaMarks()))),
               makeRule(
                   functionDecl(hasOwnDeviceAnnotation(),
                                isExpansionInMainFile(),
                                unless(isTemplateInstantiation()),
                                unless(cxxMethodDecl(ofClass(isLambda()))))
                       .bind("fn"),
                   flatten(changeTo(deviceAnnotation("fn"),
                                    transformer::run(deviceQualifiers(Ctx))),
                           rewriteDescendants("fn", dropNestedLambdaMarks()))),
               // Inside a parallelFor body (moved whole by the outliner).
               makeRule(
                   parallelForBody("body"),
                   rewriteDescendants("body", dropNestedLambdaMarks()))})) {}

} // namespace rewrite
} // namespace hpp
