//===- TransformerRule.cpp - Rules written as Transformer rules -----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Core/TransformerRule.h"

#include "llvm/Support/Error.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void TransformerRule::registerMatchers(MatchFinder &Finder) {
  for (auto &Matcher : transformer::detail::buildMatchers(R))
    Finder.addDynamicMatcher(Matcher, this);
}

void TransformerRule::run(const MatchFinder::MatchResult &Result) {
  if (Result.Context->getDiagnostics().hasErrorOccurred())
    return;
  size_t I = transformer::detail::findSelectedCase(Result, R);
  auto Edits = R.Cases[I].Edits(Result);
  if (!Edits) {
    // The match could not be rewritten (e.g. it lies in a macro expansion).
    llvm::consumeError(Edits.takeError());
    return;
  }
  for (const transformer::Edit &E : *Edits)
    if (E.Kind == transformer::EditKind::Range)
      Ctx.Edits.replace(E.Range, E.Replacement, Name);
}

} // namespace rewrite
} // namespace hpp
