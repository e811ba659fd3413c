//===- RecursiveDeviceFunctionCheck.cpp -----------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/RecursiveDeviceFunctionCheck.h"
#include "Core/DeviceCallGraph.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

void RecursiveDeviceFunctionCheck::onEndOfTranslationUnit(ASTContext &) {
  const DeviceCallGraph &G = Ctx.deviceGraph();
  // Edges between device functions, keyed by canonical declarations.
  llvm::DenseMap<const FunctionDecl *,
                 std::vector<const DeviceCallGraph::Call *>>
      Out;
  for (const DeviceCallGraph::Call &C : G.calls())
    Out[C.Caller->getCanonicalDecl()].push_back(&C);

  enum State { Unseen, OnStack, Done };
  llvm::DenseMap<const FunctionDecl *, State> Seen;
  // Iterative DFS; a call to a function on the stack closes a cycle.
  for (const FunctionDecl *Root : G.functions()) {
    const FunctionDecl *R = Root->getCanonicalDecl();
    if (Seen.lookup(R) != Unseen)
      continue;
    std::vector<std::pair<const FunctionDecl *, size_t>> Stack{{R, 0}};
    Seen[R] = OnStack;
    while (!Stack.empty()) {
      auto &[F, Next] = Stack.back();
      auto &Edges = Out[F];
      if (Next == Edges.size()) {
        Seen[F] = Done;
        Stack.pop_back();
        continue;
      }
      const DeviceCallGraph::Call *C = Edges[Next++];
      const FunctionDecl *T = C->Callee->getCanonicalDecl();
      State S = Seen.lookup(T);
      if (S == OnStack) {
        std::string Name = T->getQualifiedNameAsString();
        error(C->Loc, "recursive call to '" + Name +
                          "' in device code; device functions must not "
                          "recurse");
        note(T->getLocation(), "'" + Name + "' declared here");
      } else if (S == Unseen && Out.count(T)) {
        Seen[T] = OnStack;
        Stack.push_back({T, 0});
      }
    }
  }
}

} // namespace rewrite
} // namespace hpp
