//===- CudaDynamicSharedRule.cpp - extern __shared__ arrays ---------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/CudaDynamicSharedRule.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
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

} // namespace

CudaDynamicSharedRule::CudaDynamicSharedRule(llvm::StringRef Name,
                                             RuleContext &Ctx)
    : TransformerRule(Name, Ctx,
                      {"the dynamic shared array", node("array"),
                       [](const MatchFinder::MatchResult &R) {
                         return refusal(R.Nodes.getNodeAs<VarDecl>("array"),
                                        *R.Context)
                             .has_value();
                       }}) {
  addRule(makeRule(dynamicShared(),
                   changeTo(node("array"), transformer::run(pointerText))));
}

void CudaDynamicSharedRule::registerMatchers(MatchFinder &Finder) {
  TransformerRule::registerMatchers(Finder);
  Finder.addMatcher(dynamicShared(), &Refusals);
}

void CudaDynamicSharedRule::RefusalCallback::run(
    const MatchFinder::MatchResult &R) {
  const auto *VD = R.Nodes.getNodeAs<VarDecl>("array");
  if (std::optional<std::string> Why = refusal(VD, *R.Context))
    Self.error(VD->getLocation(), *Why);
}

} // namespace rewrite
} // namespace hpp
