//===- ConstantOrigin.cpp - Constants whose value the build decides -------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ConstantOrigin.h"
#include "Framework/Conditionals.h"
#include "Framework/DynamicASTVisitor.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// A type whose size no declaration of the program decides.
bool isBuiltinLike(QualType T) {
  T = T.getCanonicalType();
  while (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    T = AT->getElementType().getCanonicalType();
  return T->isBuiltinType() || T->isPointerType() || T->isReferenceType();
}

/// The line of \p Loc, for messages.
std::string lineOf(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  return P.isValid() ? "line " + std::to_string(P.getLine()) : "a line";
}

/// Walks the initialisers a constant's value comes from.
class Dependence {
public:
  Dependence(const ConditionalBlocks &Blocks, const SourceManager &SM,
             const LangOptions &LO)
      : Blocks(Blocks), SM(SM), LO(LO) {}

  std::optional<BuildDependence> decl(const ValueDecl *D) {
    if (!Seen.insert(D).second)
      return std::nullopt;
    SourceLocation Loc = D->getLocation();
    if (Loc.isMacroID())
      return BuildDependence{
          Loc, "it is declared by the macro '" +
                   Lexer::getImmediateMacroName(Loc, SM, LO).str() + "'"};
    if (Blocks.encloses(Loc, SM))
      return BuildDependence{Loc, "it is declared inside an #if block"};
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (const Expr *Init = VD->getInit())
        return expr(Init);
      return std::nullopt;
    }
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(D)) {
      // An enumerator without an initialiser follows the one before it.
      const auto *ED = cast<EnumDecl>(ECD->getDeclContext());
      for (const EnumConstantDecl *E : ED->enumerators()) {
        if (const Expr *Init = E->getInitExpr())
          if (auto Dep = expr(Init))
            return Dep;
        if (E == ECD)
          break;
      }
    }
    return std::nullopt;
  }

  std::optional<BuildDependence> expr(const Stmt *S) {
    if (!S)
      return std::nullopt;
    SourceLocation Loc = S->getBeginLoc();
    for (SourceLocation L : {S->getBeginLoc(), S->getEndLoc()})
      if (L.isMacroID())
        return BuildDependence{
            L, "it expands the macro '" +
                   Lexer::getImmediateMacroName(L, SM, LO).str() + "'"};
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      return BuildDependence{Loc, "it calls '" +
                                      (FD ? FD->getQualifiedNameAsString()
                                          : std::string("a function")) +
                                      "'"};
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
      if (!CE->getConstructor()->isTrivial())
        return BuildDependence{Loc, "it calls a constructor of '" +
                                        CE->getType().getAsString() + "'"};
    if (const auto *UE = dyn_cast<UnaryExprOrTypeTraitExpr>(S)) {
      QualType T = UE->getTypeOfArgument();
      if (!isBuiltinLike(T))
        return BuildDependence{Loc, "it takes the size or alignment of '" +
                                        T.getAsString() + "'"};
      return std::nullopt; // The operand is not evaluated.
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (auto Dep = decl(DRE->getDecl()))
        return Dep;
    for (const Stmt *C : S->children())
      if (auto Dep = expr(C))
        return Dep;
    return std::nullopt;
  }

private:
  const ConditionalBlocks &Blocks;
  const SourceManager &SM;
  const LangOptions &LO;
  llvm::SmallPtrSet<const ValueDecl *, 8> Seen;
};

/// Finds the first read of a variable inside a constant expression.
class ConstantUses : public DynamicASTVisitor {
public:
  explicit ConstantUses(const VarDecl *VD) : VD(VD) {}

  bool TraverseConstantExpr(ConstantExpr *E) override {
    return inConstant(
        [&] { return DynamicASTVisitor::TraverseConstantExpr(E); });
  }
  bool TraverseTypeLoc(TypeLoc TL) override {
    return inConstant([&] { return DynamicASTVisitor::TraverseTypeLoc(TL); });
  }
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &A) override {
    return inConstant(
        [&] { return DynamicASTVisitor::TraverseTemplateArgumentLoc(A); });
  }
  bool TraverseStaticAssertDecl(StaticAssertDecl *D) override {
    return inConstant(
        [&] { return DynamicASTVisitor::TraverseStaticAssertDecl(D); });
  }
  bool TraverseVarDecl(VarDecl *D) override {
    // The initialiser of a constant the body declares is a constant
    // expression where the constant is used as one: a parameter would make
    // it a run-time value.
    QualType T = D->getType();
    if (D->isConstexpr() ||
        (T.isConstQualified() && T->isIntegralOrEnumerationType()))
      return inConstant([&] { return DynamicASTVisitor::TraverseVarDecl(D); });
    return DynamicASTVisitor::TraverseVarDecl(D);
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (Depth && E->getDecl() == VD && Found.isInvalid())
      Found = E->getLocation();
    return Found.isInvalid();
  }

  SourceLocation Found;

private:
  template <class Fn> bool inConstant(Fn F) {
    ++Depth;
    bool R = F();
    --Depth;
    return R;
  }
  const VarDecl *VD;
  unsigned Depth = 0;
};

/// Whether every name of an initialiser means the same at namespace scope
/// before \p Before; collects the function-local constants it names.
bool portable(const Stmt *S, const VarDecl *Self, SourceLocation Before,
              const SourceManager &SM, std::vector<const VarDecl *> &Locals) {
  if (!S)
    return true;
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          ParenExpr, UnaryOperator, BinaryOperator, ConditionalOperator,
          ImplicitCastExpr>(S)) {
  } else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S)) {
    if (!isBuiltinLike(Cast->getTypeAsWritten()))
      return false;
  } else if (const auto *UE = dyn_cast<UnaryExprOrTypeTraitExpr>(S)) {
    return UE->isArgumentType() && isBuiltinLike(UE->getArgumentType());
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *D = DRE->getDecl();
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (VD->isLocalVarDecl() && !VD->isStaticLocal() &&
          VD->getParentFunctionOrMethod() ==
              Self->getParentFunctionOrMethod()) {
        Locals.push_back(VD);
        return true;
      }
      // A public static member of a namespace-scope class, named with its
      // class, reads the same at namespace scope.
      if (VD->isStaticDataMember()) {
        const auto *RD = cast<CXXRecordDecl>(VD->getDeclContext());
        if (!DRE->hasQualifier() || VD->getAccess() != AS_public ||
            !RD->getDeclContext()->isFileContext())
          return false;
      } else if (!VD->isFileVarDecl()) {
        return false;
      }
    } else if (const auto *ECD = dyn_cast<EnumConstantDecl>(D)) {
      if (!cast<EnumDecl>(ECD->getDeclContext())
               ->getDeclContext()
               ->isFileContext())
        return false;
    } else {
      return false;
    }
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(D->getLocation()),
                                        Before);
  } else {
    return false;
  }
  for (const Stmt *C : S->children())
    if (!portable(C, Self, Before, SM, Locals))
      return false;
  return true;
}

} // namespace

std::optional<BuildDependence> buildDependence(const VarDecl *VD,
                                               const ConditionalBlocks &Blocks,
                                               const SourceManager &SM) {
  Dependence D(Blocks, SM, VD->getASTContext().getLangOpts());
  std::optional<BuildDependence> Dep = D.decl(VD);
  if (Dep && Dep->Loc.isValid())
    Dep->Why += " (" + lineOf(Dep->Loc, SM) + ")";
  return Dep;
}

SourceLocation constantUse(const LambdaExpr *LE, const VarDecl *VD) {
  ConstantUses V(VD);
  V.TraverseStmt(LE->getBody());
  return V.Found;
}

std::optional<std::string>
initialiserText(const VarDecl *VD, SourceLocation Before,
                const ConditionalBlocks &Blocks, const ASTContext &Ctx,
                std::vector<const VarDecl *> &Locals, CharSourceRange &Range) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *Init = VD->getInit();
  if (!Init || VD->getLocation().isMacroID() ||
      Blocks.encloses(VD->getLocation(), SM))
    return std::nullopt;
  Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Init->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid() || !isWrittenInRewrittenFile(SM, Range.getBegin()))
    return std::nullopt;
  std::vector<const VarDecl *> Named;
  if (!portable(Init, VD, Before, SM, Named))
    return std::nullopt;
  Locals.insert(Locals.end(), Named.begin(), Named.end());
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

} // namespace rewrite
} // namespace hpp
