//===- CudaSharedRule.cpp - Shared memory declarations --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/CudaSharedRule.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
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

/// A variable declared `extern`.
AST_MATCHER(VarDecl, isExternStorage) {
  return Node.getStorageClass() == SC_Extern;
}

/// `extern __shared__ T name[];`, as written in a rewritten file.
DeclarationMatcher dynamicShared() {
  return varDecl(isExpansionInRewrittenFile(), isExternStorage(),
                 hasAttr(attr::CUDAShared), unless(isInstantiated()))
      .bind("array");
}

/// Why the rewrite leaves \p VD, if it does.
std::optional<std::string> refusal(const VarDecl *VD, ASTContext &AST) {
  if (!VD->isLocalVarDecl())
    return std::string("a dynamic shared array declared outside a function: "
                       "declare it in each kernel or device function that "
                       "uses it (`extern __shared__ T name[];`), which the "
                       "output turns into a pointer to the launch's shared "
                       "bytes");
  for (const DynTypedNode &P : AST.getParents(*VD))
    if (const auto *DS = P.get<DeclStmt>(); DS && !DS->isSingleDecl())
      return std::string("several dynamic shared arrays in one declaration: "
                         "declare each on its own (they all start at the "
                         "launch's shared bytes)");
  if (!isa<IncompleteArrayType>(VD->getType()) &&
      !VD->getType()->isDependentType())
    return std::string("a dynamic shared variable that is not an array of "
                       "unknown bound (`extern __shared__ T name[];`)");
  return std::nullopt;
}

/// `T *const name = hpp::dynamicShared<T>()` for the match's array.
llvm::Expected<std::string> pointerText(const MatchFinder::MatchResult &R) {
  const auto *VD = R.Nodes.getNodeAs<VarDecl>("array");
  QualType Element = R.Context->getAsArrayType(VD->getType())->getElementType();
  PrintingPolicy Policy(R.Context->getLangOpts());
  Policy.SuppressTagKeyword = true;
  std::string T = Element.getAsString(Policy);
  std::string Pointer =
      Element->isArrayType() ? "auto *const " : T + " *const ";
  // node() takes the declaration with its semicolon.
  return Pointer + VD->getName().str() + " = hpp::dynamicShared<" + T + ">();";
}

/// The `static` keyword among \p VD's specifiers, with the blanks after
/// it, as written in the file; nullopt when it has none (clang gives a
/// `__shared__` variable of a function static storage without it).
std::optional<CharSourceRange> staticKeyword(const VarDecl *VD,
                                             const SourceManager &SM,
                                             const LangOptions &LO) {
  // The specifiers' first token may be a macro's (`__shared__`): where it
  // is used. Raw tokens from there to the name are the text as written.
  SourceLocation Begin = SM.getExpansionLoc(VD->getBeginLoc());
  SourceLocation Name = VD->getLocation();
  if (Name.isMacroID() || SM.getFileID(Begin) != SM.getFileID(Name))
    return std::nullopt;
  std::pair<FileID, unsigned> Start = SM.getDecomposedLoc(Begin);
  llvm::StringRef Buffer = SM.getBufferData(Start.first);
  Lexer Raw(SM.getLocForStartOfFile(Start.first), LO, Buffer.begin(),
            Buffer.begin() + Start.second, Buffer.end());
  Token T;
  while (!Raw.LexFromRawLexer(T) &&
         SM.isBeforeInTranslationUnit(T.getLocation(), Name)) {
    if (T.is(tok::raw_identifier) && T.getRawIdentifier() == "static") {
      Token Next;
      Raw.LexFromRawLexer(Next);
      return CharSourceRange::getCharRange(T.getLocation(), Next.getLocation());
    }
  }
  return std::nullopt;
}

/// A variable whose specifiers, as written, say `static`.
AST_MATCHER(VarDecl, isWrittenStatic) {
  const ASTContext &AST = Finder->getASTContext();
  return staticKeyword(&Node, AST.getSourceManager(), AST.getLangOpts())
      .has_value();
}

/// `static __shared__ T x;` in a function, as written in a rewritten file.
DeclarationMatcher staticShared() {
  return varDecl(isExpansionInRewrittenFile(), isWrittenStatic(),
                 hasDeclContext(functionDecl()), hasAttr(attr::CUDAShared),
                 unless(isInstantiated()))
      .bind("static");
}

} // namespace

CudaSharedRule::CudaSharedRule(llvm::StringRef Name, RuleContext &Ctx)
    : TransformerRule(Name, Ctx,
                      {"the shared memory declaration",
                       [](const MatchFinder::MatchResult &R) {
                         return node(R.Nodes.getNodeAs<VarDecl>("array")
                                         ? "array"
                                         : "static")(R);
                       },
                       [](const MatchFinder::MatchResult &R) {
                         const auto *VD = R.Nodes.getNodeAs<VarDecl>("array");
                         return VD && refusal(VD, *R.Context).has_value();
                       }}) {
  addRule(makeRule(dynamicShared(),
                   changeTo(node("array"), transformer::run(pointerText))));
  addRule(makeRule(
      staticShared(),
      changeTo(
          [](const MatchFinder::MatchResult &R) -> Expected<CharSourceRange> {
            return *staticKeyword(R.Nodes.getNodeAs<VarDecl>("static"),
                                  *R.SourceManager, R.Context->getLangOpts());
          },
          cat(""))));
}

void CudaSharedRule::registerMatchers(MatchFinder &Finder) {
  TransformerRule::registerMatchers(Finder);
  Finder.addMatcher(dynamicShared(), &Refusals);
}

void CudaSharedRule::RefusalCallback::run(const MatchFinder::MatchResult &R) {
  const auto *VD = R.Nodes.getNodeAs<VarDecl>("array");
  if (std::optional<std::string> Why = refusal(VD, *R.Context))
    Self.error(VD->getLocation(), *Why);
}

} // namespace rewrite
} // namespace hpp
