//===- WidthRegions.cpp - Host statements that need the width constant ----===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/WidthRegions.h"
#include "Analysis/WidthRegionStatements.h"
#include "Dialect/DeviceCode.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace clang;

namespace hpp {
namespace rewrite {

bool WidthRegion::contains(SourceLocation Loc, const SourceManager &SM) const {
  return !SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
         SM.isBeforeInTranslationUnit(Loc, Range.getEnd());
}

bool needsWidthConstant(const WidthUse &U) {
  return !U.InMacro && (U.Context == WidthUse::Constant ||
                        (U.Context == WidthUse::DispatchArg && U.Via));
}

namespace {

/// A block of a body: the function (or lambda) whose body it is, the
/// switch whose body it is, and how deep it lies.
struct Block {
  const CompoundStmt *S;
  const FunctionDecl *BodyOf;
  const SwitchStmt *SwitchOf;
  unsigned Depth;
  /// The body of the function (or lambda) it is in.
  const Stmt *In;
};

/// The blocks of a function's body and of the host lambdas in it.
class BlockFinder : public DynamicASTVisitor {
public:
  std::vector<Block> Blocks;

  void run(const FunctionDecl *Fn) {
    addBody(Fn);
    In = Fn->getBody();
    TraverseStmt(Fn->getBody());
  }
  bool TraverseLambdaExpr(LambdaExpr *L) override {
    // Device lambdas are device code: no host region is in them.
    if (getDeviceAnnotation(L->getCallOperator()))
      return true;
    addBody(L->getCallOperator());
    const Stmt *Saved = In;
    In = L->getBody();
    bool OK = DynamicASTVisitor::TraverseLambdaExpr(L);
    In = Saved;
    return OK;
  }
  bool TraverseSwitchStmt(SwitchStmt *S) override {
    if (const auto *B = dyn_cast_or_null<CompoundStmt>(S->getBody()))
      Switches[B] = S;
    return DynamicASTVisitor::TraverseSwitchStmt(S);
  }
  bool TraverseCompoundStmt(CompoundStmt *S) override {
    Blocks.push_back({S, Bodies.lookup(S), Switches.lookup(S), Depth, In});
    ++Depth;
    bool OK = DynamicASTVisitor::TraverseCompoundStmt(S);
    --Depth;
    return OK;
  }

private:
  void addBody(const FunctionDecl *F) {
    // A function-try-block's block and handlers are its body's.
    if (const auto *Try = dyn_cast_or_null<CXXTryStmt>(F->getBody())) {
      Bodies[Try->getTryBlock()] = F;
      for (unsigned I = 0; I < Try->getNumHandlers(); ++I)
        Bodies[Try->getHandler(I)->getHandlerBlock()] = F;
    } else if (const auto *C = dyn_cast_or_null<CompoundStmt>(F->getBody())) {
      Bodies[C] = F;
    }
  }
  llvm::DenseMap<const Stmt *, const FunctionDecl *> Bodies;
  llvm::DenseMap<const CompoundStmt *, const SwitchStmt *> Switches;
  unsigned Depth = 0;
  const Stmt *In = nullptr;
};

/// The index of the statement of \p B that holds \p Loc, or -1.
int statementAt(const CompoundStmt *B, SourceLocation Loc,
                const SourceManager &SM) {
  int I = 0;
  for (const Stmt *S : B->body()) {
    SourceRange R(SM.getExpansionLoc(S->getBeginLoc()),
                  SM.getExpansionLoc(S->getEndLoc()));
    if (!SM.isBeforeInTranslationUnit(Loc, R.getBegin()) &&
        !SM.isBeforeInTranslationUnit(R.getEnd(), Loc))
      return I;
    ++I;
  }
  return -1;
}

/// The innermost block of \p Blocks that holds \p Loc.
const Block *innermost(llvm::ArrayRef<Block> Blocks, SourceLocation Loc,
                       const SourceManager &SM) {
  const Block *Best = nullptr;
  for (const Block &B : Blocks)
    if ((!Best || B.Depth > Best->Depth) && statementAt(B.S, Loc, SM) >= 0)
      Best = &B;
  return Best;
}

/// Whether \p F is a constexpr function that its callers may evaluate as
/// one: a lambda's call operator is constexpr where it can be (C++17), but
/// only one written so is relied on.
bool isWrittenConstexpr(const FunctionDecl *F, ASTContext &Ctx) {
  if (!F->isConstexpr())
    return false;
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  if (!M || !M->getParent()->isLambda())
    return true;
  FunctionTypeLoc FTL = F->getFunctionTypeLoc();
  if (!FTL || FTL.getRParenLoc().isInvalid() || !F->getBody())
    return false;
  StringRef Between =
      Lexer::getSourceText(CharSourceRange::getCharRange(
                               FTL.getRParenLoc(), F->getBody()->getBeginLoc()),
                           Ctx.getSourceManager(), Ctx.getLangOpts());
  return Between.contains("constexpr") || Between.contains("consteval");
}

/// Whether \p Loc is in the body of a constexpr function of \p Blocks.
bool inConstexprBody(llvm::ArrayRef<Block> Blocks, SourceLocation Loc,
                     ASTContext &Ctx) {
  const Block *Body = nullptr;
  for (const Block &B : Blocks)
    if (B.BodyOf && (!Body || B.Depth > Body->Depth) &&
        statementAt(B.S, Loc, Ctx.getSourceManager()) >= 0)
      Body = &B;
  return Body && isWrittenConstexpr(Body->BodyOf, Ctx);
}

/// The return type of \p F as written, for a lambda that returns what it
/// returns: empty for plain `auto` (the lambda deduces it alike); nullopt
/// where it cannot be written (decltype(auto)).
std::optional<std::string> returnTypeText(const FunctionDecl *F,
                                          ASTContext &Ctx) {
  QualType Written = F->getDeclaredReturnType();
  if (const auto *AT = dyn_cast<AutoType>(Written.getTypePtr()))
    if (AT->getKeyword() == AutoTypeKeyword::Auto && !AT->isConstrained() &&
        !Written.hasQualifiers())
      return std::string();
  if (const AutoType *AT = Written->getContainedAutoType())
    if (AT->isDecltypeAuto() || AT->isConstrained())
      return std::nullopt;
  // Written after the name (a trailing return type, a conversion's type,
  // a lambda's), getReturnTypeSourceRange() has none.
  SourceRange TR = F->getReturnTypeSourceRange();
  const auto *FPT = F->getType()->getAs<FunctionProtoType>();
  if (const auto *C = dyn_cast<CXXConversionDecl>(F)) {
    if (const TypeSourceInfo *TSI = C->getNameInfo().getNamedTypeInfo())
      TR = TSI->getTypeLoc().getSourceRange();
  } else if (FPT && FPT->hasTrailingReturn()) {
    if (FunctionTypeLoc FTL = F->getFunctionTypeLoc())
      TR = FTL.getReturnLoc().getSourceRange();
  }
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange File = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(TR), SM, Ctx.getLangOpts());
  // A type location begins after its qualifiers (`const int &`): the
  // printed type has them.
  bool Qualified = false;
  for (QualType T = Written; !T.isNull(); T = T->getPointeeType())
    Qualified |= T.hasLocalQualifiers();
  if (TR.isInvalid() || File.isInvalid() || Qualified)
    return Written.getAsString(Ctx.getPrintingPolicy());
  return Lexer::getSourceText(File, SM, Ctx.getLangOpts()).str();
}

/// Extends \p R to the statements that use what it declares (and, where it
/// uses a structured binding declared before it, to that declaration: a
/// lambda captures none before C++20), and to the end of its function's
/// body where it returns; checks how control leaves.
void complete(WidthRegion &R, const Block &B, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  llvm::ArrayRef<Stmt *> Body(R.Block->body_begin(), R.Block->body_end());
  auto ExitsOf = [&](unsigned From, unsigned To) {
    return findExits(Body.slice(From, To + 1 - From), B.In);
  };
  auto RefersTo = [&](unsigned From, unsigned To,
                      const llvm::DenseSet<const Decl *> &Decls) {
    for (unsigned I = From; I <= To; ++I)
      if (refersTo(Body[I], Decls))
        return true;
    return false;
  };
  R.Problem.clear();
  R.ReturnsValue = false;
  R.ReturnType.clear();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned J = 0; J < R.First && !Changed; ++J) {
      llvm::DenseSet<const Decl *> Bindings;
      if (const auto *DS = dyn_cast<DeclStmt>(Body[J]))
        for (const Decl *D : DS->decls())
          if (const auto *DD = dyn_cast<DecompositionDecl>(D))
            for (const BindingDecl *Bd : DD->bindings())
              Bindings.insert(Bd);
      if (Bindings.empty())
        continue;
      if (RefersTo(R.First, R.Last, Bindings) &&
          ExitsOf(J, R.First - 1).Problem.empty()) {
        R.First = J;
        Changed = true;
      }
    }
    llvm::DenseSet<const Decl *> Declared;
    bool All = false;
    for (unsigned I = R.First; I <= R.Last; ++I)
      All |= !declaresFor(Body[I], Declared);
    for (unsigned J = Body.size(); J-- > R.Last + 1;) {
      if (All || RefersTo(J, J, Declared)) {
        R.Last = J;
        Changed = true;
        break;
      }
    }
    StatementExits E = ExitsOf(R.First, R.Last);
    if (!E.Problem.empty()) {
      R.Problem = E.Problem;
      R.ProblemLoc = SM.getExpansionLoc(E.ProblemLoc);
      break;
    }
    if (!E.Returns)
      continue;
    if (!B.BodyOf) {
      R.Problem = "a 'return' from the middle of the function";
      R.ProblemLoc = SM.getExpansionLoc(Body[R.First]->getBeginLoc());
      break;
    }
    if (R.Last + 1 != Body.size()) {
      R.Last = Body.size() - 1;
      Changed = true;
      continue;
    }
    if (B.BodyOf->getReturnType()->isVoidType())
      continue;
    R.ReturnsValue = true;
    std::optional<std::string> T = returnTypeText(B.BodyOf, Ctx);
    if (!T) {
      R.Problem = "a 'return' in a function whose return type is deduced "
                  "other than as plain 'auto'";
      R.ProblemLoc = SM.getExpansionLoc(B.BodyOf->getLocation());
      break;
    }
    R.ReturnType = *T;
  }
  // From the first statement's first character to the last one's last
  // (its `;` included), each of them where a macro's expansion begins or
  // ends, if not written in the file.
  SourceLocation Begin = Body[R.First]->getBeginLoc(),
                 End = Body[R.Last]->getEndLoc();
  CharSourceRange File = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Begin, End), SM, LO);
  // Where not: the macro it begins or ends inside, or the `;` that is not.
  SourceLocation NotSpelled;
  if (File.isInvalid())
    NotSpelled =
        Begin.isMacroID() && !Lexer::isAtStartOfMacroExpansion(Begin, SM, LO)
            ? SM.getExpansionLoc(Begin)
            : SM.getExpansionLoc(End);
  if (File.isValid() && endsBeforeSemicolon(Body[R.Last])) {
    Token Semi;
    if (!Lexer::getRawToken(File.getEnd(), Semi, SM, LO, true) &&
        Semi.is(tok::semi))
      File.setEnd(Semi.getEndLoc());
    else
      NotSpelled = Lexer::getRawToken(File.getEnd(), Semi, SM, LO, true)
                       ? File.getEnd()
                       : Semi.getLocation();
  }
  R.Range = NotSpelled.isInvalid()
                ? File
                : CharSourceRange::getTokenRange(SM.getExpansionLoc(Begin),
                                                 SM.getExpansionLoc(End));
  if (R.Problem.empty() && NotSpelled.isValid()) {
    R.Problem = "statements written through a macro";
    R.ProblemLoc = NotSpelled;
  }
  StringRef Text = Lexer::getSourceText(R.Range, SM, LO);
  while (Text.contains(R.Param))
    R.Param += "_";
  SourceLocation Branch;
  if (R.Problem.empty() &&
      (Branch = unbalancedConditional(R.Range, SM, LO)).isValid()) {
    R.Problem = "an #if, #else or #endif line between their first and last "
                "(a build might compile one of them and not the other)";
    R.ProblemLoc = Branch;
  }
  if (R.Problem.empty() && B.BodyOf && isWrittenConstexpr(B.BodyOf, Ctx)) {
    R.Problem = "a constexpr function (the width is known only at run time)";
    R.ProblemLoc = SM.getExpansionLoc(B.BodyOf->getLocation());
  }
}

/// The local constants that hold the width and through which \p V (one of
/// them) does: a region that needs \p V as a constant needs them all.
class HolderChain {
public:
  HolderChain(llvm::ArrayRef<WidthUse> Uses, const SourceManager &SM)
      : Uses(Uses), SM(SM) {}

  void collect(const VarDecl *V, std::vector<const VarDecl *> &Out) {
    if (llvm::is_contained(Out, V))
      return;
    Out.push_back(V);
    for (const VarDecl *D : locals(V))
      if (holds(D))
        collect(D, Out);
  }

private:
  /// The local `const` variables \p V's initialiser reads.
  std::vector<const VarDecl *> locals(const VarDecl *V) {
    std::vector<const VarDecl *> Out;
    std::vector<const Stmt *> Work{V->getInit()};
    while (!Work.empty()) {
      const Stmt *S = Work.back();
      Work.pop_back();
      if (!S)
        continue;
      if (const auto *E = dyn_cast<DeclRefExpr>(S))
        if (const auto *D = dyn_cast<VarDecl>(E->getDecl()))
          if (D->isLocalVarDecl() && D->getType().isConstQualified() &&
              D->getInit())
            Out.push_back(D);
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
    return Out;
  }
  bool holds(const VarDecl *D) {
    auto [It, New] = Memo.try_emplace(D, false);
    if (!New)
      return It->second;
    SourceRange R(SM.getExpansionLoc(D->getInit()->getBeginLoc()),
                  SM.getExpansionLoc(D->getInit()->getEndLoc()));
    bool Holds = llvm::any_of(Uses, [&](const WidthUse &U) {
      SourceLocation L = SM.getExpansionLoc(U.Range.getBegin());
      return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
             !SM.isBeforeInTranslationUnit(R.getEnd(), L);
    });
    for (const VarDecl *L : locals(D))
      Holds = Holds || holds(L);
    return Memo[D] = Holds;
  }
  llvm::ArrayRef<WidthUse> Uses;
  const SourceManager &SM;
  llvm::DenseMap<const VarDecl *, bool> Memo;
};

/// Statements First..Last of a block that a use needs, from Use.
struct Need {
  unsigned First, Last;
  SourceLocation Use;
};

} // namespace

std::vector<WidthRegion> findWidthRegions(const FunctionDecl *Fn,
                                          llvm::ArrayRef<WidthUse> Uses,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  BlockFinder Finder;
  Finder.run(Fn);
  HolderChain Chain(Uses, SM);

  // Each use's block and statements: the outermost block of its own and,
  // for a use through a constant, of the constants it holds the width
  // through; from the first of their declarations to the use.
  llvm::MapVector<const Block *, std::vector<Need>> Pending;
  for (const WidthUse &U : Uses) {
    SourceLocation At = SM.getExpansionLoc(U.Range.getBegin());
    // In a constexpr function, a run-time value makes no constant either.
    if (!needsWidthConstant(U) &&
        (U.InMacro || U.Context != WidthUse::RunTime ||
         !inConstexprBody(Finder.Blocks, At, Ctx)))
      continue;
    const Block *B = innermost(Finder.Blocks, At, SM);
    std::vector<const VarDecl *> Holders;
    if (U.Via)
      Chain.collect(U.Via, Holders);
    for (const VarDecl *V : Holders)
      if (const Block *VB = innermost(Finder.Blocks,
                                      SM.getExpansionLoc(V->getLocation()), SM))
        if (B && VB->Depth < B->Depth && statementAt(VB->S, At, SM) >= 0)
          B = VB;
    if (!B)
      continue;
    unsigned Last = statementAt(B->S, At, SM), First = Last;
    for (const VarDecl *V : Holders) {
      int D = statementAt(B->S, SM.getExpansionLoc(V->getLocation()), SM);
      if (D >= 0)
        First = std::min<unsigned>(First, D);
    }
    Pending[B].push_back({First, Last, At});
  }

  // Deepest blocks first: a region in a switch's body that holds a case
  // label is the whole switch, in the block around it. In a block, regions
  // that meet (one uses what another declares) are one.
  std::vector<WidthRegion> Out;
  while (!Pending.empty()) {
    auto Deepest = Pending.begin();
    for (auto It = Pending.begin(); It != Pending.end(); ++It)
      if (It->first->Depth > Deepest->first->Depth)
        Deepest = It;
    const Block &B = *Deepest->first;
    std::vector<Need> Needs = std::move(Deepest->second);
    Pending.erase(Deepest);
    llvm::sort(Needs, [](const Need &A, const Need &N) {
      return A.First < N.First || (A.First == N.First && A.Last < N.Last);
    });
    for (size_t I = 0; I < Needs.size();) {
      WidthRegion R;
      R.Block = B.S;
      R.First = Needs[I].First;
      R.Last = Needs[I].Last;
      R.FirstUse = Needs[I].Use;
      for (++I;;) {
        complete(R, B, Ctx);
        bool Met = false;
        for (; I < Needs.size() && Needs[I].First <= R.Last; ++I, Met = true) {
          R.Last = std::max(R.Last, Needs[I].Last);
          if (SM.isBeforeInTranslationUnit(Needs[I].Use, R.FirstUse))
            R.FirstUse = Needs[I].Use;
        }
        if (!Met)
          break;
      }
      const Stmt *const *Stmts = B.S->body_begin();
      bool Label =
          B.SwitchOf &&
          std::any_of(Stmts + R.First, Stmts + R.Last + 1,
                      [](const Stmt *S) { return isa<SwitchCase>(S); });
      SourceLocation Switch =
          Label ? SM.getExpansionLoc(B.SwitchOf->getBeginLoc())
                : SourceLocation();
      if (const Block *Around =
              Label ? innermost(Finder.Blocks, Switch, SM) : nullptr) {
        unsigned At = statementAt(Around->S, Switch, SM);
        Pending[Around].push_back({At, At, R.FirstUse});
        continue;
      }
      Out.push_back(std::move(R));
    }
  }
  // A region inside another is part of it.
  llvm::sort(Out, [&](const WidthRegion &A, const WidthRegion &B) {
    return SM.isBeforeInTranslationUnit(A.Range.getBegin(), B.Range.getBegin());
  });
  std::vector<WidthRegion> Outer;
  for (WidthRegion &R : Out) {
    // (The outer region's own check covers the inner one's statements.)
    if (!Outer.empty() && Outer.back().contains(R.Range.getBegin(), SM))
      continue;
    Outer.push_back(std::move(R));
  }
  return Outer;
}

} // namespace rewrite
} // namespace hpp
