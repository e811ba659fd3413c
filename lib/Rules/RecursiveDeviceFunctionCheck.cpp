//===- RecursiveDeviceFunctionCheck.cpp -----------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/RecursiveDeviceFunctionCheck.h"
#include "Analysis/DeviceCallGraph.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// What one device function body does with function pointers: the
/// functions whose address it takes and its indirect calls (through a
/// pointer or reference to a function, or a pointer to a member function),
/// and, for the bodies DeviceCallGraph did not follow, its direct calls.
class PointerScan : public DynamicASTVisitor {
public:
  struct Taken {
    const FunctionDecl *Fn;
    SourceLocation Loc;
  };
  struct Indirect {
    /// The function type called; null when it is not known.
    QualType Type;
    /// Through a pointer to a member function.
    bool Member;
    SourceLocation Loc;
  };
  std::vector<Taken> AddressTaken;
  std::vector<Indirect> IndirectCalls;
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> DirectCalls;

  PointerScan() { ShouldVisitTemplateInstantiations = true; }

  bool VisitCallExpr(CallExpr *CE) override {
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      Callees.insert(CE->getCallee()->IgnoreParenImpCasts());
      DirectCalls.emplace_back(FD, CE->getBeginLoc());
      return true;
    }
    const Expr *Callee = CE->getCallee();
    if (!Callee || Callee->isTypeDependent() ||
        isa<CXXPseudoDestructorExpr>(Callee->IgnoreParens()))
      return true;
    Indirect I{QualType(), false, CE->getBeginLoc()};
    QualType T = Callee->getType();
    const auto *BO = dyn_cast<BinaryOperator>(Callee->IgnoreParens());
    if (BO && BO->isPtrMemOp()) {
      I.Member = true;
      if (const auto *MPT = BO->getRHS()->getType()->getAs<MemberPointerType>())
        I.Type = MPT->getPointeeType();
    } else if (const auto *PT = T->getAs<PointerType>()) {
      I.Type = PT->getPointeeType();
    } else if (T->isFunctionType()) {
      I.Type = T; // A reference to a function, or `(*p)`.
    }
    IndirectCalls.push_back(I);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) override {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor && !Ctor->isTrivial())
      DirectCalls.emplace_back(Ctor, CE->getBeginLoc());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    // A name that is not called directly is an address taken: `q = fact`,
    // `&fact`, `apply(fact, n)`, `&S::f`. (A call's callee was seen first.)
    if (const auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
      if (!Callees.contains(E))
        AddressTaken.push_back({FD, E->getLocation()});
    return true;
  }

private:
  llvm::DenseSet<const Expr *> Callees;
};

/// One edge of the device call graph.
struct Edge {
  const FunctionDecl *Callee;
  SourceLocation Loc;
  /// For a possible target of an indirect call: where its address is
  /// taken; invalid for a direct call.
  SourceLocation Taken;
};

const FunctionDecl *key(const FunctionDecl *FD) {
  return FD->getCanonicalDecl();
}

/// May an indirect call \p I call \p Target?
bool mayCall(const PointerScan::Indirect &I, const FunctionDecl *Target,
             ASTContext &AST) {
  const auto *M = dyn_cast<CXXMethodDecl>(Target);
  bool Member = M && !M->isStatic();
  if (Member != I.Member)
    return false;
  return I.Type.isNull() || AST.hasSameFunctionTypeIgnoringExceptionSpec(
                                Target->getType(), I.Type);
}

} // namespace

void RecursiveDeviceFunctionCheck::onEndOfTranslationUnit(ASTContext &AST) {
  const DeviceCallGraph &G = Ctx.deviceGraph();
  const SourceManager &SM = AST.getSourceManager();
  // Edges between device functions, keyed by canonical declarations.
  llvm::DenseMap<const FunctionDecl *, std::vector<Edge>> Out;
  for (const DeviceCallGraph::Call &C : G.calls())
    if (C.Caller)
      Out[key(C.Caller)].push_back({C.Callee, C.Loc, SourceLocation()});

  // Function pointers (conservatively): an indirect call in device code may
  // call any device function whose address device code takes and whose
  // type matches. Those functions' bodies are device code too.
  llvm::SetVector<const FunctionDecl *> Bodies;
  for (const FunctionDecl *F : G.functions())
    Bodies.insert(F);
  llvm::DenseSet<const FunctionDecl *> Followed(G.functions().begin(),
                                                G.functions().end());
  struct IndirectSite {
    const FunctionDecl *Caller;
    PointerScan::Indirect Call;
  };
  std::vector<IndirectSite> Indirect;
  std::vector<PointerScan::Taken> Taken;
  llvm::DenseSet<const FunctionDecl *> TakenSeen;
  for (size_t I = 0; I < Bodies.size(); ++I) {
    const FunctionDecl *F = Bodies[I];
    if (!F->getBody() || F->isDependentContext())
      continue;
    PointerScan Scan;
    Scan.TraverseStmt(F->getBody());
    for (const PointerScan::Indirect &Call : Scan.IndirectCalls)
      Indirect.push_back({F, Call});
    auto Follow = [&](const FunctionDecl *Callee) {
      CalleeKind Kind = DeviceCallGraph::classify(Callee, SM);
      if (Kind != CalleeKind::Annotated && Kind != CalleeKind::Implicit)
        return;
      if (const FunctionDecl *Def = Callee->getDefinition())
        Bodies.insert(Def);
    };
    // The direct calls of a body DeviceCallGraph did not follow.
    if (!Followed.contains(F))
      for (auto [Callee, Loc] : Scan.DirectCalls) {
        Out[key(F)].push_back({Callee, Loc, SourceLocation()});
        Follow(Callee);
      }
    for (const PointerScan::Taken &T : Scan.AddressTaken) {
      if (TakenSeen.insert(key(T.Fn)).second)
        Taken.push_back(T);
      Follow(T.Fn);
    }
  }
  for (const IndirectSite &S : Indirect)
    for (const PointerScan::Taken &T : Taken)
      if (mayCall(S.Call, T.Fn, AST))
        Out[key(S.Caller)].push_back({T.Fn, S.Call.Loc, T.Loc});

  auto ReportCycle = [&](const Edge &E, const FunctionDecl *Target,
                         const Edge &Indirect) {
    std::string Name = Target->getQualifiedNameAsString();
    if (E.Taken.isValid()) {
      error(E.Loc, "indirect call in device code that may call '" + Name +
                       "', which reaches this call: device functions must not "
                       "recurse, through a function pointer either");
      note(E.Taken, "the address of '" + Name +
                        "' is taken in device code here; an indirect call may "
                        "call any device function of its type whose address "
                        "device code takes");
    } else if (Indirect.Callee) {
      std::string Via = Indirect.Callee->getQualifiedNameAsString();
      error(E.Loc, "recursive call to '" + Name +
                       "' in device code, through a function pointer; device "
                       "functions must not recurse");
      note(Indirect.Loc, "this indirect call may call '" + Via +
                             "', a device function of its type whose address "
                             "device code takes");
      note(Indirect.Taken, "the address of '" + Via + "' is taken here");
    } else {
      error(E.Loc, "recursive call to '" + Name +
                       "' in device code; device functions must not recurse");
    }
    note(Target->getLocation(), "'" + Name + "' declared here");
  };

  enum State { Unseen, OnStack, Done };
  llvm::DenseMap<const FunctionDecl *, State> Seen;
  struct Frame {
    const FunctionDecl *F;
    size_t Next;
    /// The edge that reached F (none for a root).
    Edge In;
  };
  // Iterative DFS; a call to a function on the stack closes a cycle.
  for (const FunctionDecl *Root : Bodies) {
    const FunctionDecl *R = key(Root);
    if (Seen.lookup(R) != Unseen)
      continue;
    std::vector<Frame> Stack{{R, 0, Edge{nullptr, {}, {}}}};
    Seen[R] = OnStack;
    while (!Stack.empty()) {
      const FunctionDecl *F = Stack.back().F;
      size_t Next = Stack.back().Next;
      const std::vector<Edge> &Edges = Out[F];
      if (Next == Edges.size()) {
        Seen[F] = Done;
        Stack.pop_back();
        continue;
      }
      Edge E = Edges[Next];
      ++Stack.back().Next;
      const FunctionDecl *T = key(E.Callee);
      State S = Seen.lookup(T);
      if (S == OnStack) {
        ReportCycle(E, T, [&] {
          // The first indirect edge of the cycle, if any.
          size_t I = Stack.size();
          while (I > 0 && Stack[I - 1].F != T)
            --I;
          for (; I < Stack.size(); ++I)
            if (Stack[I].In.Taken.isValid())
              return Stack[I].In;
          return Edge{nullptr, {}, {}};
        }());
      } else if (S == Unseen && Out.count(T)) {
        Seen[T] = OnStack;
        Stack.push_back({T, 0, E});
      }
    }
  }
}

} // namespace rewrite
} // namespace hpp
