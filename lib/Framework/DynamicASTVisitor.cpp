//===- DynamicASTVisitor.cpp - One traversal for every visitor ------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one instantiation of `clang::RecursiveASTVisitor`: Impl forwards
/// every customization point to the DynamicASTVisitor's virtual functions,
/// and their default implementations call back into Impl's base.
///
//===----------------------------------------------------------------------===//

#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace {

/// The template instance. It holds only a reference, so the default
/// implementations make one per call.
struct Impl : RecursiveASTVisitor<Impl> {
  using Base = RecursiveASTVisitor<Impl>;
  DynamicASTVisitor &V;
  explicit Impl(DynamicASTVisitor &V) : V(V) {}

  bool shouldVisitTemplateInstantiations() const {
    return V.ShouldVisitTemplateInstantiations;
  }
  bool shouldWalkTypesOfTypeLocs() const { return V.ShouldWalkTypesOfTypeLocs; }
  bool shouldVisitImplicitCode() const { return V.ShouldVisitImplicitCode; }
  bool shouldVisitLambdaBody() const { return V.ShouldVisitLambdaBody; }

  // The queue is dropped: the visitor's TraverseStmt recurses.
  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    return V.TraverseStmt(S);
  }
  bool TraverseDecl(Decl *D) { return V.TraverseDecl(D); }
  bool TraverseType(QualType T) { return V.TraverseType(T); }
  bool TraverseTypeLoc(TypeLoc TL) { return V.TraverseTypeLoc(TL); }
  bool TraverseAttr(Attr *A) { return V.TraverseAttr(A); }
  bool TraverseNestedNameSpecifier(NestedNameSpecifier *NNS) {
    return V.TraverseNestedNameSpecifier(NNS);
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc N) {
    return V.TraverseNestedNameSpecifierLoc(N);
  }
  bool TraverseDeclarationNameInfo(DeclarationNameInfo Info) {
    return V.TraverseDeclarationNameInfo(Info);
  }
  bool TraverseTemplateName(TemplateName Template) {
    return V.TraverseTemplateName(Template);
  }
  bool TraverseTemplateArgument(const TemplateArgument &Arg) {
    return V.TraverseTemplateArgument(Arg);
  }
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &A) {
    return V.TraverseTemplateArgumentLoc(A);
  }
  bool TraverseTemplateArguments(ArrayRef<TemplateArgument> Args) {
    return V.TraverseTemplateArguments(Args);
  }
  bool TraverseCXXBaseSpecifier(const CXXBaseSpecifier &B) {
    return V.TraverseCXXBaseSpecifier(B);
  }
  bool TraverseConstructorInitializer(CXXCtorInitializer *Init) {
    return V.TraverseConstructorInitializer(Init);
  }
  bool TraverseLambdaCapture(LambdaExpr *LE, const LambdaCapture *C,
                             Expr *Init) {
    return V.TraverseLambdaCapture(LE, C, Init);
  }

  bool VisitStmt(Stmt *S) { return V.VisitStmt(S); }
#define ABSTRACT_STMT(STMT)
#define STMT(CLASS, PARENT)                                                    \
  bool Traverse##CLASS(CLASS *S, DataRecursionQueue * = nullptr) {             \
    return V.Traverse##CLASS(S);                                               \
  }
#include "clang/AST/StmtNodes.inc"
#define STMT(CLASS, PARENT)                                                    \
  bool Visit##CLASS(CLASS *S) { return V.Visit##CLASS(S); }
#include "clang/AST/StmtNodes.inc"

  bool VisitDecl(Decl *D) { return V.VisitDecl(D); }
#define ABSTRACT_DECL(DECL)
#define DECL(CLASS, BASE)                                                      \
  bool Traverse##CLASS##Decl(CLASS##Decl *D) {                                 \
    return V.Traverse##CLASS##Decl(D);                                         \
  }
#include "clang/AST/DeclNodes.inc"
#define DECL(CLASS, BASE)                                                      \
  bool Visit##CLASS##Decl(CLASS##Decl *D) { return V.Visit##CLASS##Decl(D); }
#include "clang/AST/DeclNodes.inc"

  bool VisitType(Type *T) { return V.VisitType(T); }
#define ABSTRACT_TYPE(CLASS, BASE)
#define TYPE(CLASS, BASE)                                                      \
  bool Traverse##CLASS##Type(CLASS##Type *T) {                                 \
    return V.Traverse##CLASS##Type(T);                                         \
  }
#include "clang/AST/TypeNodes.inc"
#define TYPE(CLASS, BASE)                                                      \
  bool Visit##CLASS##Type(CLASS##Type *T) { return V.Visit##CLASS##Type(T); }
#include "clang/AST/TypeNodes.inc"

  bool VisitTypeLoc(TypeLoc TL) { return V.VisitTypeLoc(TL); }
  bool VisitQualifiedTypeLoc(QualifiedTypeLoc TL) {
    return V.VisitQualifiedTypeLoc(TL);
  }
  bool VisitUnqualTypeLoc(UnqualTypeLoc TL) { return V.VisitUnqualTypeLoc(TL); }
#define ABSTRACT_TYPELOC(CLASS, BASE)
#define TYPELOC(CLASS, BASE)                                                   \
  bool Traverse##CLASS##TypeLoc(CLASS##TypeLoc TL) {                           \
    return V.Traverse##CLASS##TypeLoc(TL);                                     \
  }
#include "clang/AST/TypeLocNodes.def"
#define TYPE(CLASS, BASE)                                                      \
  bool Visit##CLASS##TypeLoc(CLASS##TypeLoc TL) {                              \
    return V.Visit##CLASS##TypeLoc(TL);                                        \
  }
#include "clang/AST/TypeNodes.inc"
};

} // namespace

DynamicASTVisitor::~DynamicASTVisitor() = default;

bool DynamicASTVisitor::TraverseAST(ASTContext &AST) {
  return Impl(*this).TraverseAST(AST);
}

// The default traversals: RecursiveASTVisitor's, on an Impl of this visitor.
bool DynamicASTVisitor::TraverseDecl(Decl *D) {
  return Impl(*this).Impl::Base::TraverseDecl(D);
}
bool DynamicASTVisitor::TraverseStmt(Stmt *S) {
  return Impl(*this).Impl::Base::TraverseStmt(S, nullptr);
}
bool DynamicASTVisitor::TraverseType(QualType T) {
  return Impl(*this).Impl::Base::TraverseType(T);
}
bool DynamicASTVisitor::TraverseTypeLoc(TypeLoc TL) {
  return Impl(*this).Impl::Base::TraverseTypeLoc(TL);
}
bool DynamicASTVisitor::TraverseAttr(Attr *A) {
  return Impl(*this).Impl::Base::TraverseAttr(A);
}
bool DynamicASTVisitor::TraverseNestedNameSpecifier(NestedNameSpecifier *NNS) {
  return Impl(*this).Impl::Base::TraverseNestedNameSpecifier(NNS);
}
bool DynamicASTVisitor::TraverseNestedNameSpecifierLoc(
    NestedNameSpecifierLoc N) {
  return Impl(*this).Impl::Base::TraverseNestedNameSpecifierLoc(N);
}
bool DynamicASTVisitor::TraverseDeclarationNameInfo(DeclarationNameInfo Info) {
  return Impl(*this).Impl::Base::TraverseDeclarationNameInfo(Info);
}
bool DynamicASTVisitor::TraverseTemplateName(TemplateName Template) {
  return Impl(*this).Impl::Base::TraverseTemplateName(Template);
}
bool DynamicASTVisitor::TraverseTemplateArgument(const TemplateArgument &Arg) {
  return Impl(*this).Impl::Base::TraverseTemplateArgument(Arg);
}
bool DynamicASTVisitor::TraverseTemplateArgumentLoc(
    const TemplateArgumentLoc &A) {
  return Impl(*this).Impl::Base::TraverseTemplateArgumentLoc(A);
}
bool DynamicASTVisitor::TraverseTemplateArguments(
    ArrayRef<TemplateArgument> Args) {
  return Impl(*this).Impl::Base::TraverseTemplateArguments(Args);
}
bool DynamicASTVisitor::TraverseCXXBaseSpecifier(const CXXBaseSpecifier &B) {
  return Impl(*this).Impl::Base::TraverseCXXBaseSpecifier(B);
}
bool DynamicASTVisitor::TraverseConstructorInitializer(
    CXXCtorInitializer *Init) {
  return Impl(*this).Impl::Base::TraverseConstructorInitializer(Init);
}
bool DynamicASTVisitor::TraverseLambdaCapture(LambdaExpr *LE,
                                              const LambdaCapture *C,
                                              Expr *Init) {
  return Impl(*this).Impl::Base::TraverseLambdaCapture(LE, C, Init);
}

bool DynamicASTVisitor::WalkUpFromStmt(Stmt *S) {
  return Impl(*this).WalkUpFromStmt(S);
}
#define ABSTRACT_STMT(STMT)
#define STMT(CLASS, PARENT)                                                    \
  bool DynamicASTVisitor::Traverse##CLASS(CLASS *S) {                          \
    return Impl(*this).Impl::Base::Traverse##CLASS(S, nullptr);                \
  }
#include "clang/AST/StmtNodes.inc"
#define STMT(CLASS, PARENT)                                                    \
  bool DynamicASTVisitor::WalkUpFrom##CLASS(CLASS *S) {                        \
    return Impl(*this).WalkUpFrom##CLASS(S);                                   \
  }
#include "clang/AST/StmtNodes.inc"

bool DynamicASTVisitor::WalkUpFromDecl(Decl *D) {
  return Impl(*this).WalkUpFromDecl(D);
}
#define ABSTRACT_DECL(DECL)
#define DECL(CLASS, BASE)                                                      \
  bool DynamicASTVisitor::Traverse##CLASS##Decl(CLASS##Decl *D) {              \
    return Impl(*this).Impl::Base::Traverse##CLASS##Decl(D);                   \
  }
#include "clang/AST/DeclNodes.inc"
#define DECL(CLASS, BASE)                                                      \
  bool DynamicASTVisitor::WalkUpFrom##CLASS##Decl(CLASS##Decl *D) {            \
    return Impl(*this).WalkUpFrom##CLASS##Decl(D);                             \
  }
#include "clang/AST/DeclNodes.inc"

bool DynamicASTVisitor::WalkUpFromType(Type *T) {
  return Impl(*this).WalkUpFromType(T);
}
#define ABSTRACT_TYPE(CLASS, BASE)
#define TYPE(CLASS, BASE)                                                      \
  bool DynamicASTVisitor::Traverse##CLASS##Type(CLASS##Type *T) {              \
    return Impl(*this).Impl::Base::Traverse##CLASS##Type(T);                   \
  }
#include "clang/AST/TypeNodes.inc"
#define TYPE(CLASS, BASE)                                                      \
  bool DynamicASTVisitor::WalkUpFrom##CLASS##Type(CLASS##Type *T) {            \
    return Impl(*this).WalkUpFrom##CLASS##Type(T);                             \
  }
#include "clang/AST/TypeNodes.inc"

bool DynamicASTVisitor::WalkUpFromTypeLoc(TypeLoc TL) {
  return Impl(*this).WalkUpFromTypeLoc(TL);
}
bool DynamicASTVisitor::WalkUpFromQualifiedTypeLoc(QualifiedTypeLoc TL) {
  return Impl(*this).WalkUpFromQualifiedTypeLoc(TL);
}
bool DynamicASTVisitor::WalkUpFromUnqualTypeLoc(UnqualTypeLoc TL) {
  return Impl(*this).WalkUpFromUnqualTypeLoc(TL);
}
#define ABSTRACT_TYPELOC(CLASS, BASE)
#define TYPELOC(CLASS, BASE)                                                   \
  bool DynamicASTVisitor::Traverse##CLASS##TypeLoc(CLASS##TypeLoc TL) {        \
    return Impl(*this).Impl::Base::Traverse##CLASS##TypeLoc(TL);               \
  }
#include "clang/AST/TypeLocNodes.def"
#define TYPE(CLASS, BASE)                                                      \
  bool DynamicASTVisitor::WalkUpFrom##CLASS##TypeLoc(CLASS##TypeLoc TL) {      \
    return Impl(*this).WalkUpFrom##CLASS##TypeLoc(TL);                         \
  }
#include "clang/AST/TypeNodes.inc"

} // namespace rewrite
} // namespace hpp
