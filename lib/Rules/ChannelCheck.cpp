//===- ChannelCheck.cpp - Channels are not lowered yet --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/ChannelCheck.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

namespace {
/// Whether \p T, through references, pointers and arrays, names an
/// `hpp::Channel` specialization (dependent or not).
bool isChannelType(QualType T) {
  while (!T.isNull()) {
    T = T.getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    else if (T->isArrayType())
      T = QualType(T->getArrayElementTypeNoTypeQual(), 0);
    else
      break;
  }
  if (T.isNull())
    return false;
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    if (const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl())
      return TD->getQualifiedNameAsString() == "hpp::Channel";
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl()))
    return Spec->getSpecializedTemplate()->getQualifiedNameAsString() ==
           "hpp::Channel";
  return false;
}

AST_POLYMORPHIC_MATCHER(hasChannelType,
                        AST_POLYMORPHIC_SUPPORTED_TYPES(Expr, ValueDecl)) {
  return isChannelType(Node.getType());
}
} // namespace

void ChannelCheck::registerMatchers(MatchFinder &Finder) {
  // As spelled: a template's uses are reported once, in the pattern.
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               declaratorDecl(hasChannelType(), isExpansionInMainFile())
                   .bind("decl")),
      this);
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               expr(anyOf(cxxMemberCallExpr(on(hasChannelType())),
                          cxxDependentScopeMemberExpr(
                              hasObjectExpression(hasChannelType())),
                          cxxConstructExpr(hasChannelType()),
                          cxxUnresolvedConstructExpr(hasChannelType())),
                    isExpansionInMainFile())
                   .bind("use")),
      this);
}

void ChannelCheck::run(const MatchFinder::MatchResult &R) {
  const SourceManager &SM = *R.SourceManager;
  SourceLocation Loc;
  std::string What;
  if (const auto *D = R.Nodes.getNodeAs<DeclaratorDecl>("decl")) {
    Loc = D->getLocation();
    What = "'" + D->getNameAsString() + "' has type '" +
           D->getType().getAsString() + "'";
  } else if (const auto *E = R.Nodes.getNodeAs<Expr>("use")) {
    Loc = E->getExprLoc();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      What = "this call of Channel::" +
             (MC->getMethodDecl() ? MC->getMethodDecl()->getNameAsString()
                                  : std::string("?"));
      Loc = MC->getCallee()->getExprLoc();
    } else if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(E)) {
      What = "this use of Channel::" + DM->getMember().getAsString();
    } else {
      What = "this construction of a Channel";
    }
  }
  Loc = SM.getExpansionLoc(Loc);
  if (Loc.isInvalid() || !Reported.insert(Loc).second)
    return;
  error(Loc, What + ": channels (hpp::Channel) are not supported by the "
                    "rewriter yet; use a Task or a parallelFor");
}

} // namespace rewrite
} // namespace hpp
