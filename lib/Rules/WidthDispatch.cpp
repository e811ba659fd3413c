//===- WidthDispatch.cpp - The text of host width dispatches --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/WidthDispatch.h"
#include "Analysis/WidthRegions.h"
#include "Analysis/WidthUses.h"

#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace hpp {
namespace rewrite {

std::string regionOpening(const WidthRegion &R) {
  std::string Lambda = "hpp::withWarpSize([&](auto " + R.Param + ")";
  if (!R.ReturnsValue)
    return Lambda + " { ";
  return "return " + Lambda +
         (R.ReturnType.empty() ? "" : " -> " + R.ReturnType) + " { ";
}

std::string regionWidth(const WidthRegion &R) {
  return "decltype(" + R.Param + ")::value";
}

std::vector<std::pair<SourceLocation, std::string>>
regionInsertions(const WidthRegion &R) {
  std::vector<std::pair<SourceLocation, std::string>> Out{
      {R.Range.getBegin(), regionOpening(R)}};
  for (const WidthRegion::Keyword &K : R.Keywords) {
    auto Same =
        llvm::find_if(Out, [&](const auto &I) { return I.first == K.Loc; });
    if (Same == Out.end())
      Out.push_back({K.Loc, K.Text.str()});
    else
      Same->second += K.Text;
  }
  Out.push_back({R.Range.getEnd(), RegionClosing.str()});
  return Out;
}

/// The blanks that start the line of \p Loc.
static std::string lineIndent(SourceLocation Loc, const SourceManager &SM) {
  const char *Data = SM.getCharacterData(Loc);
  unsigned Col = SM.getSpellingColumnNumber(Loc) - 1;
  const char *Line = Data - Col;
  unsigned N = 0;
  while (N < Col && (Line[N] == ' ' || Line[N] == '\t'))
    ++N;
  return std::string(Line, N);
}

/// \p Call's text with every width use inside it replaced: \p Width for
/// the dispatched template arguments, the run-time width for the others.
static std::string instantiate(StringRef Text, unsigned Begin,
                               llvm::ArrayRef<const WidthUse *> Uses,
                               StringRef Width, const SourceManager &SM) {
  std::string Out;
  unsigned Pos = 0;
  for (const WidthUse *U : Uses) {
    unsigned B = SM.getFileOffset(U->Range.getBegin()) - Begin;
    unsigned E = SM.getFileOffset(U->Range.getEnd()) - Begin;
    if (U->Range.isTokenRange())
      E += Lexer::MeasureTokenLength(U->Range.getEnd(), SM, LangOptions());
    Out += Text.substr(Pos, B - Pos);
    Out +=
        U->Context == WidthUse::DispatchArg ? Width : StringRef(RunTimeWidth);
    Pos = E;
  }
  Out += Text.substr(Pos);
  return Out;
}

WidthDispatch dispatchCallStatement(const Expr *Call, bool Braces,
                                    std::vector<const WidthUse *> Uses,
                                    ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  WidthDispatch D;
  CharSourceRange Range =
      CharSourceRange::getTokenRange(Call->getSourceRange());
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID()) {
    D.Problem = " in a call written through a macro";
    return D;
  }
  // Wrapped in braces, the dispatch takes the statement's `;` with it.
  SourceLocation Semi;
  if (Braces) {
    std::optional<Token> Next =
        Lexer::findNextToken(Call->getEndLoc(), SM, AST.getLangOpts());
    if (!Next || !Next->is(tok::semi) || Next->getLocation().isMacroID()) {
      D.Problem = ": the call statement's ';' is not written after the call";
      return D;
    }
    Semi = Next->getLocation();
  }
  llvm::sort(Uses, [&](const WidthUse *A, const WidthUse *B) {
    return SM.getFileOffset(A->Range.getBegin()) <
           SM.getFileOffset(B->Range.getBegin());
  });
  StringRef Text = Lexer::getSourceText(Range, SM, AST.getLangOpts());
  unsigned Begin = SM.getFileOffset(Range.getBegin());
  std::string C32 = instantiate(Text, Begin, Uses, "32", SM);
  std::string C64 = instantiate(Text, Begin, Uses, "64", SM);
  if (!Braces) {
    std::string Indent(SM.getSpellingColumnNumber(Range.getBegin()) - 1, ' ');
    D.Range = Range;
    D.Text = "if constexpr (hpp::getMaxWarpSize() == 32)\n" + Indent + "  " +
             C32 + ";\n" + Indent + "else if (" + RunTimeWidth.str() +
             " == 32)\n" + Indent + "  " + C32 + ";\n" + Indent + "else\n" +
             Indent + "  " + C64;
    return D;
  }
  // `case 1: f<W>(x);`, `if (c) f<W>(x);`: one statement, a block, at the
  // indentation of the line the call starts on.
  std::string Indent = lineIndent(Range.getBegin(), SM);
  std::string In = Indent + "  ";
  D.Range = CharSourceRange::getTokenRange(Range.getBegin(), Semi);
  D.Text = "{\n" + In + "if constexpr (hpp::getMaxWarpSize() == 32)\n" + In +
           "  " + C32 + ";\n" + In + "else if (" + RunTimeWidth.str() +
           " == 32)\n" + In + "  " + C32 + ";\n" + In + "else\n" + In + "  " +
           C64 + ";\n" + Indent + "}";
  return D;
}

// The names of a region that the dispatch makes a template's dependent
// names: inside `hpp::withWarpSize([&](auto hppWarp) { ... })` the width is
// `decltype(hppWarp)::value`, which depends on the generic lambda's
// template parameter; so do a type written with it (`Tile<MVECTOR_SIZE>`),
// what is declared with such a type or value, and the classes declared
// there. C++ allows `typename` and `template` where they are not needed,
// so one too many is harmless; one too few does not compile.

namespace {

/// Whether a node refers to one of a set of declarations.
class RefersToOne : public DynamicASTVisitor {
public:
  explicit RefersToOne(const llvm::DenseSet<const Decl *> &Decls)
      : Decls(Decls) {}
  bool Found = false;
  bool VisitDeclRefExpr(DeclRefExpr *E) override { return check(E->getDecl()); }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) override {
    return check(TL.getTypedefNameDecl());
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) override { return check(TL.getDecl()); }

private:
  bool check(const Decl *D) {
    Found |= D && Decls.count(D->getCanonicalDecl());
    return !Found;
  }
  const llvm::DenseSet<const Decl *> &Decls;
};

/// Walks a region's statements in order: what they declare that depends
/// on the width, and the names that need a keyword.
class NameFinder : public DynamicASTVisitor {
  using Base = DynamicASTVisitor;

public:
  NameFinder(WidthRegion &R, llvm::ArrayRef<WidthUse> Uses,
             const SourceManager &SM)
      : R(R), SM(SM) {
    for (const WidthUse &U : Uses)
      UseLocs.push_back(SM.getExpansionLoc(U.Range.getBegin()));
  }

  // What depends on the width.
  bool VisitVarDecl(VarDecl *D) override {
    const TypeSourceInfo *TSI = D->getTypeSourceInfo();
    if ((TSI && mentions(TSI->getTypeLoc())) ||
        (D->getInit() && mentions(D->getInit()))) {
      Dependent.insert(D->getCanonicalDecl());
      if (const auto *DD = dyn_cast<DecompositionDecl>(D))
        for (const BindingDecl *B : DD->bindings())
          Dependent.insert(B);
    }
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *D) override {
    if (mentions(D->getTypeSourceInfo()->getTypeLoc()))
      Dependent.insert(D->getCanonicalDecl());
    return true;
  }
  bool VisitTagDecl(TagDecl *D) override {
    // A class declared in a template is a templated entity.
    Dependent.insert(D->getCanonicalDecl());
    return true;
  }

  // A qualifier's parts, a base class and a base's initialiser take no
  // `typename`.
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc N) override {
    return inName([&] { return Base::TraverseNestedNameSpecifierLoc(N); });
  }
  bool TraverseCXXBaseSpecifier(const CXXBaseSpecifier &B) override {
    return inName([&] { return Base::TraverseCXXBaseSpecifier(B); });
  }
  bool TraverseConstructorInitializer(CXXCtorInitializer *I) override {
    return inName([&] { return Base::TraverseConstructorInitializer(I); });
  }

  // The names that need a keyword.
  bool VisitElaboratedTypeLoc(ElaboratedTypeLoc TL) override {
    NestedNameSpecifierLoc Q = TL.getQualifierLoc();
    if (InName || TL.getElaboratedKeywordLoc().isValid() ||
        TL.getType()->isDependentType() || !byType(Q))
      return true;
    add(Q.getBeginLoc(), "typename ");
    if (auto TST = TL.getNamedTypeLoc().getAs<TemplateSpecializationTypeLoc>())
      if (TST.getTemplateKeywordLoc().isInvalid())
        add(TST.getTemplateNameLoc(), "template ");
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) override {
    if (E->hasExplicitTemplateArgs() && !E->hasTemplateKeyword() &&
        !E->isImplicitAccess() && mentions(E->getBase()))
      add(E->getMemberLoc(), "template ");
    return true;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *E) override {
    if (E->hasExplicitTemplateArgs() && !E->hasTemplateKeyword() &&
        !E->isImplicitAccess() && mentions(E->getBase()))
      add(E->getMemberLoc(), "template ");
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (E->hasExplicitTemplateArgs() && !E->hasTemplateKeyword() &&
        byType(E->getQualifierLoc()))
      add(E->getLocation(), "template ");
    return true;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) override {
    if (E->hasExplicitTemplateArgs() && !E->hasTemplateKeyword() &&
        byType(E->getQualifierLoc()))
      add(E->getNameLoc(), "template ");
    return true;
  }

private:
  template <class F> bool inName(F &&Traverse) {
    ++InName;
    bool OK = Traverse();
    --InName;
    return OK;
  }
  /// A qualifier that names a type that depends on the width.
  bool byType(NestedNameSpecifierLoc Q) {
    return Q && Q.getNestedNameSpecifier()->getAsType() && mentions(Q);
  }
  /// Whether \p Node (an Expr, a TypeLoc or a NestedNameSpecifierLoc) is
  /// written with the width or with what depends on it.
  template <class N> bool mentions(N Node) {
    SourceRange Range = range(Node);
    SourceLocation B = SM.getExpansionLoc(Range.getBegin()),
                   E = SM.getExpansionLoc(Range.getEnd());
    for (SourceLocation L : UseLocs)
      if (!SM.isBeforeInTranslationUnit(L, B) &&
          !SM.isBeforeInTranslationUnit(E, L))
        return true;
    RefersToOne V(Dependent);
    traverse(V, Node);
    return V.Found;
  }
  static SourceRange range(const Expr *E) { return E->getSourceRange(); }
  static SourceRange range(TypeLoc TL) { return TL.getSourceRange(); }
  static SourceRange range(NestedNameSpecifierLoc N) {
    return N.getSourceRange();
  }
  static void traverse(DynamicASTVisitor &V, const Expr *E) {
    V.TraverseStmt(const_cast<Expr *>(E));
  }
  static void traverse(DynamicASTVisitor &V, TypeLoc TL) {
    V.TraverseTypeLoc(TL);
  }
  static void traverse(DynamicASTVisitor &V, NestedNameSpecifierLoc N) {
    V.TraverseNestedNameSpecifierLoc(N);
  }
  void add(SourceLocation Loc, llvm::StringRef Text) {
    if (Loc.isMacroID()) {
      if (R.Problem.empty()) {
        R.Problem = "a name written through a macro that the width makes a "
                    "template's dependent name";
        R.ProblemLoc = SM.getExpansionLoc(Loc);
      }
      return;
    }
    for (const WidthRegion::Keyword &K : R.Keywords)
      if (K.Loc == Loc && K.Text == Text)
        return;
    R.Keywords.push_back({Loc, Text});
  }

  WidthRegion &R;
  const SourceManager &SM;
  std::vector<SourceLocation> UseLocs;
  llvm::DenseSet<const Decl *> Dependent;
  unsigned InName = 0;
};

} // namespace

void findDependentNames(WidthRegion &R, llvm::ArrayRef<WidthUse> Uses,
                        ASTContext &Ctx) {
  NameFinder Finder(R, Uses, Ctx.getSourceManager());
  for (unsigned I = R.First; I <= R.Last; ++I)
    Finder.TraverseStmt(R.Block->body_begin()[I]);
}

} // namespace rewrite
} // namespace hpp
