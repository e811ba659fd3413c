//===- TiledPartitionWidthCheck.cpp - Tiles wider than the smallest warp --===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/TiledPartitionWidthCheck.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {

/// The smallest warp: NVIDIA, and AMD's RDNA in wave32.
constexpr int64_t MinWarp = 32;

/// True for tiled_partition / thread_block_tile of namespace
/// cooperative_groups (the SDK's nests them in a versioned namespace).
bool isTileTemplate(const NamedDecl *D) {
  if (!D || !D->getIdentifier() ||
      (D->getName() != "tiled_partition" &&
       D->getName() != "thread_block_tile"))
    return false;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

} // namespace

void TiledPartitionWidthCheck::registerMatchers(MatchFinder &Finder) {
  // As spelled: template instantiations repeat the pattern's arguments.
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               declRefExpr(isExpansionInRewrittenFile(),
                           to(functionDecl(hasName("tiled_partition"))))
                   .bind("ref")),
      this);
  Finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                             unresolvedLookupExpr(isExpansionInRewrittenFile())
                                 .bind("unresolved")),
                    this);
  Finder.addMatcher(templateSpecializationTypeLoc().bind("type"), this);
}

void TiledPartitionWidthCheck::run(const MatchFinder::MatchResult &Result) {
  ASTContext &AST = *Result.Context;
  if (const auto *DRE = Result.Nodes.getNodeAs<DeclRefExpr>("ref")) {
    if (isTileTemplate(DRE->getDecl()))
      check(DRE->getDecl()->getName(), DRE->template_arguments(), AST);
  } else if (const auto *ULE =
                 Result.Nodes.getNodeAs<UnresolvedLookupExpr>("unresolved")) {
    if (llvm::any_of(ULE->decls(), isTileTemplate))
      check(ULE->getName().getAsString(), ULE->template_arguments(), AST);
  } else if (const auto *TL =
                 Result.Nodes.getNodeAs<TemplateSpecializationTypeLoc>(
                     "type")) {
    const SourceManager &SM = *Result.SourceManager;
    const TemplateDecl *TD =
        TL->getTypePtr()->getTemplateName().getAsTemplateDecl();
    if (!isExpansionInRewrittenFile(SM, TL->getBeginLoc()) ||
        !isTileTemplate(TD))
      return;
    llvm::SmallVector<TemplateArgumentLoc, 2> Args;
    for (unsigned I = 0; I != TL->getNumArgs(); ++I)
      Args.push_back(TL->getArgLoc(I));
    check(TD->getName(), Args, AST);
  }
}

void TiledPartitionWidthCheck::check(StringRef Name,
                                     ArrayRef<TemplateArgumentLoc> Args,
                                     ASTContext &AST) {
  if (Args.empty())
    return;
  const TemplateArgumentLoc &Width = Args.front();
  const Expr *E = Width.getArgument().getKind() == TemplateArgument::Expression
                      ? Width.getSourceExpression()
                      : nullptr;
  if (!E || E->isValueDependent())
    return;
  std::optional<llvm::APSInt> N = E->getIntegerConstantExpr(AST);
  if (!N || N->getExtValue() <= MinWarp)
    return;
  std::string Spelled = (Name + "<" + llvm::toString(*N, 10) + ">").str();
  {
    auto B = warning(Width.getLocation(),
                     "'" + Spelled + "' needs a warp of at least " +
                         llvm::toString(*N, 10) +
                         " lanes; warps are 32 wide on NVIDIA and on RDNA "
                         "(wave32)");
    const auto *IL = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
    if (IL && !IL->getLocation().isMacroID())
      B << FixItHint::CreateReplacement(IL->getSourceRange(), "MVECTOR_MIN");
  }
  note(Width.getLocation(),
       "MVECTOR_MIN (32) fits every warp; for the width of the executing "
       "warp, known only at run time, partition by hpp::getWarpSize()");
}

} // namespace rewrite
} // namespace hpp
