//===- HostReferenceCaptureCheck.cpp --------------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/HostReferenceCaptureCheck.h"
#include "Analysis/Captures.h"
#include "Dialect/DialectMatchers.h"

#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

void HostReferenceCaptureCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(parallelForCall(), this);
  Finder.addMatcher(taskConstruction(), this);
  Finder.addMatcher(taskVariable(), this);
  Finder.addMatcher(channelExecuteWith(), this);
}

void HostReferenceCaptureCheck::run(const MatchFinder::MatchResult &R) {
  const auto *LE = R.Nodes.getNodeAs<LambdaExpr>("lambda");
  if (!LE)
    return;
  const SourceManager &SM = *R.SourceManager;
  for (const Capture &C : collectCaptures(LE)) {
    if (C.Kind != CaptureKind::HostReference)
      continue;
    const ValueDecl *V = C.Var;
    std::string Msg = "'" + V->getNameAsString() + "' of type '" +
                      V->getType().getAsString() +
                      "' is captured by reference, but it lives in host "
                      "memory that device code cannot access";
    SourceLocation Loc = C.Loc;
    if (C.Implicit) {
      // `[&]`: offer `[=]`.
      error(Loc, Msg) << FixItHint::CreateReplacement(
          CharSourceRange::getCharRange(
              LE->getCaptureDefaultLoc(),
              LE->getCaptureDefaultLoc().getLocWithOffset(1)),
          "=");
    } else {
      // `&x`: offer `x`. The '&' precedes the name, maybe after blanks.
      SourceLocation Amp = C.Loc;
      const char *P = SM.getCharacterData(Amp);
      unsigned Back = 1;
      while (Back < 16 && (P[-(int)Back] == ' ' || P[-(int)Back] == '\t'))
        ++Back;
      auto B = error(Loc, Msg);
      if (P[-(int)Back] != '&') {
        // An init-capture (`&r = x`): no certain fix.
      } else if (LE->getCaptureDefault() != LCD_ByCopy) {
        B << FixItHint::CreateRemoval(CharSourceRange::getCharRange(
            Amp.getLocWithOffset(-(int)Back), Amp));
      } else {
        // `[=, &x]`: `[=, x]` is ill-formed before C++20, and `=` already
        // copies x; remove `, &x`.
        unsigned Comma = Back + 1;
        while (Comma < 64 && (P[-(int)Comma] == ' ' || P[-(int)Comma] == '\t' ||
                              P[-(int)Comma] == '\n'))
          ++Comma;
        unsigned Len = Lexer::MeasureTokenLength(Loc, SM, LangOptions());
        if (P[-(int)Comma] == ',' && Len)
          B << FixItHint::CreateRemoval(CharSourceRange::getCharRange(
              Loc.getLocWithOffset(-(int)Comma), Loc.getLocWithOffset(Len)));
      }
    }
    note(V->getLocation(), "'" + V->getNameAsString() +
                               "' declared here; capture it by value, or "
                               "keep the data in a Pointer from allocate()");
  }
}

} // namespace rewrite
} // namespace hpp
