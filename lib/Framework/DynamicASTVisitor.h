//===- DynamicASTVisitor.h - One traversal for every visitor ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A recursive AST visitor whose callbacks are virtual functions.
///
/// `clang::RecursiveASTVisitor<Derived>` is a template: every class derived
/// from it instantiates the whole traversal again (some 1,500 functions),
/// and each instantiation costs about 6 s of compile time at -O1. The tool
/// has some twenty small visitors; DynamicASTVisitor instantiates the
/// traversal once (DynamicASTVisitor.cpp) and calls the visitor through
/// virtual functions, as clang 20's `DynamicRecursiveASTVisitor` does.
///
/// Differences from `RecursiveASTVisitor`:
///  - the `should*()` functions are data members, set in the constructor;
///  - overrides are marked `override` and call the default traversal as
///    `DynamicASTVisitor::TraverseFoo(Node)`;
///  - statements are traversed by recursion, never through a data
///    recursion queue (`TraverseStmt` has no queue parameter);
///  - post-order traversal is not offered.
/// The order of the calls is otherwise `RecursiveASTVisitor`'s.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_FRAMEWORK_DYNAMICASTVISITOR_H
#define HPP_REWRITE_LIB_FRAMEWORK_DYNAMICASTVISITOR_H

#include "clang/AST/DeclarationName.h"
#include "clang/AST/NestedNameSpecifier.h"
#include "clang/AST/TemplateBase.h"
#include "clang/AST/TemplateName.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang {
class ASTContext;
class Attr;
class CXXBaseSpecifier;
class CXXCtorInitializer;
class LambdaCapture;
#define ABSTRACT_STMT(STMT) STMT
#define STMT(CLASS, PARENT) class CLASS;
#include "clang/AST/StmtNodes.inc"
#define DECL(CLASS, BASE) class CLASS##Decl;
#include "clang/AST/DeclNodes.inc"
} // namespace clang

namespace hpp {
namespace rewrite {

/// A recursive AST visitor with virtual `Traverse*` and `Visit*` functions
/// for every node class (see the file comment).
class DynamicASTVisitor {
public:
  DynamicASTVisitor() = default;
  DynamicASTVisitor(const DynamicASTVisitor &) = default;
  DynamicASTVisitor &operator=(const DynamicASTVisitor &) = default;
  virtual ~DynamicASTVisitor();

  /// `RecursiveASTVisitor::shouldVisitTemplateInstantiations()`.
  bool ShouldVisitTemplateInstantiations = false;
  /// `RecursiveASTVisitor::shouldWalkTypesOfTypeLocs()`.
  bool ShouldWalkTypesOfTypeLocs = true;
  /// `RecursiveASTVisitor::shouldVisitImplicitCode()`.
  bool ShouldVisitImplicitCode = false;
  /// `RecursiveASTVisitor::shouldVisitLambdaBody()`.
  bool ShouldVisitLambdaBody = true;

  /// The whole translation unit (within the context's traversal scope).
  bool TraverseAST(clang::ASTContext &AST);

  virtual bool TraverseDecl(clang::Decl *D);
  virtual bool TraverseStmt(clang::Stmt *S);
  virtual bool TraverseType(clang::QualType T);
  virtual bool TraverseTypeLoc(clang::TypeLoc TL);
  virtual bool TraverseAttr(clang::Attr *A);
  virtual bool TraverseNestedNameSpecifier(clang::NestedNameSpecifier *NNS);
  virtual bool TraverseNestedNameSpecifierLoc(clang::NestedNameSpecifierLoc N);
  virtual bool TraverseDeclarationNameInfo(clang::DeclarationNameInfo Info);
  virtual bool TraverseTemplateName(clang::TemplateName Template);
  virtual bool TraverseTemplateArgument(const clang::TemplateArgument &Arg);
  virtual bool TraverseTemplateArgumentLoc(const clang::TemplateArgumentLoc &A);
  virtual bool
  TraverseTemplateArguments(llvm::ArrayRef<clang::TemplateArgument> Args);
  virtual bool TraverseCXXBaseSpecifier(const clang::CXXBaseSpecifier &Base);
  virtual bool TraverseConstructorInitializer(clang::CXXCtorInitializer *Init);
  virtual bool TraverseLambdaCapture(clang::LambdaExpr *LE,
                                     const clang::LambdaCapture *C,
                                     clang::Expr *Init);

  // Statements: Traverse* for the concrete classes; Visit* (empty) and
  // WalkUpFrom* (Visit* from Stmt down to the class) for all of them.
  bool WalkUpFromStmt(clang::Stmt *S);
  virtual bool VisitStmt(clang::Stmt *) { return true; }
#define ABSTRACT_STMT(STMT)
#define STMT(CLASS, PARENT) virtual bool Traverse##CLASS(clang::CLASS *S);
#include "clang/AST/StmtNodes.inc"
#define STMT(CLASS, PARENT)                                                    \
  bool WalkUpFrom##CLASS(clang::CLASS *S);                                     \
  virtual bool Visit##CLASS(clang::CLASS *) { return true; }
#include "clang/AST/StmtNodes.inc"

  // Declarations.
  bool WalkUpFromDecl(clang::Decl *D);
  virtual bool VisitDecl(clang::Decl *) { return true; }
#define ABSTRACT_DECL(DECL)
#define DECL(CLASS, BASE)                                                      \
  virtual bool Traverse##CLASS##Decl(clang::CLASS##Decl *D);
#include "clang/AST/DeclNodes.inc"
#define DECL(CLASS, BASE)                                                      \
  bool WalkUpFrom##CLASS##Decl(clang::CLASS##Decl *D);                         \
  virtual bool Visit##CLASS##Decl(clang::CLASS##Decl *) { return true; }
#include "clang/AST/DeclNodes.inc"

  // Types.
  bool WalkUpFromType(clang::Type *T);
  virtual bool VisitType(clang::Type *) { return true; }
#define ABSTRACT_TYPE(CLASS, BASE)
#define TYPE(CLASS, BASE)                                                      \
  virtual bool Traverse##CLASS##Type(clang::CLASS##Type *T);
#include "clang/AST/TypeNodes.inc"
#define TYPE(CLASS, BASE)                                                      \
  bool WalkUpFrom##CLASS##Type(clang::CLASS##Type *T);                         \
  virtual bool Visit##CLASS##Type(clang::CLASS##Type *) { return true; }
#include "clang/AST/TypeNodes.inc"

  // Type locations (the qualified and unqualified ones besides the
  // classes of TypeNodes.inc).
  bool WalkUpFromTypeLoc(clang::TypeLoc TL);
  virtual bool VisitTypeLoc(clang::TypeLoc) { return true; }
  bool WalkUpFromQualifiedTypeLoc(clang::QualifiedTypeLoc TL);
  virtual bool VisitQualifiedTypeLoc(clang::QualifiedTypeLoc) { return true; }
  bool WalkUpFromUnqualTypeLoc(clang::UnqualTypeLoc TL);
  virtual bool VisitUnqualTypeLoc(clang::UnqualTypeLoc) { return true; }
#define ABSTRACT_TYPELOC(CLASS, BASE)
#define TYPELOC(CLASS, BASE)                                                   \
  virtual bool Traverse##CLASS##TypeLoc(clang::CLASS##TypeLoc TL);
#include "clang/AST/TypeLocNodes.def"
#define TYPE(CLASS, BASE)                                                      \
  bool WalkUpFrom##CLASS##TypeLoc(clang::CLASS##TypeLoc TL);                   \
  virtual bool Visit##CLASS##TypeLoc(clang::CLASS##TypeLoc) { return true; }
#include "clang/AST/TypeNodes.inc"
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_FRAMEWORK_DYNAMICASTVISITOR_H
