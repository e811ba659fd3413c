//===- DialectMatchers.cpp - AST matchers for dialect constructs ----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Core/DialectMatchers.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace hpp {
namespace rewrite {

bool isParallelForBody(const LambdaExpr &LE, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(LE);
  // Up through the implicit nodes between an argument and its call.
  for (;;) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.size() != 1)
      return false;
    Node = Parents[0];
    const auto *E = Node.get<Expr>();
    if (!E)
      return false;
    if (isa<CallExpr>(E))
      return !match(parallelForCall(), *E, Ctx).empty();
    if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
             CXXConstructExpr, ExprWithCleanups>(E))
      return false;
  }
}

} // namespace rewrite
} // namespace hpp
