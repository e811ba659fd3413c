//===- ReservedNameCheck.cpp - Names the GPU headers declare --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/ReservedNameCheck.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringMap.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

/// The headers that declare \p Name, or an empty string.
static StringRef reservedBy(StringRef Name) {
  static const llvm::StringMap<StringRef> Names = {
#define HPP_RESERVED_NAME(Name, Headers) {#Name, Headers},
#include "Rules/ReservedNames.def"
  };
  auto It = Names.find(Name);
  return It == Names.end() ? StringRef() : It->second;
}

namespace {
/// Declared at global scope, directly or in an `extern "C"` block.
AST_MATCHER(NamedDecl, isAtGlobalScope) {
  return Node.getDeclContext()->getRedeclContext()->isTranslationUnit();
}
} // namespace

void ReservedNameCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      namedDecl(isExpansionInRewrittenFile(), isAtGlobalScope()).bind("decl"),
      this);
}

void ReservedNameCheck::run(const MatchFinder::MatchResult &R) {
  const auto *D = R.Nodes.getNodeAs<NamedDecl>("decl");
  const IdentifierInfo *Id = D->getIdentifier();
  if (!Id || D->isImplicit())
    return;
  StringRef Headers = reservedBy(Id->getName());
  if (Headers.empty())
    return;
  // Once per entity: at its first declaration in the main file.
  const SourceManager &SM = *R.SourceManager;
  for (const Decl *Prev = D->getPreviousDecl(); Prev;
       Prev = Prev->getPreviousDecl())
    if (isWrittenInRewrittenFile(SM, SM.getExpansionLoc(Prev->getLocation())))
      return;
  error(D->getLocation(), "'" + Id->getName().str() +
                              "' is declared at global scope by the " +
                              Headers.str() +
                              " headers that the rewritten file includes, "
                              "so the output would not compile");
  note(D->getLocation(), "rename it, or declare it in a namespace");
}

} // namespace rewrite
} // namespace hpp
