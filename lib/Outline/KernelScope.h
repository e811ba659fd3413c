//===- KernelScope.h - What an outlined kernel can name ---------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An outlined kernel lives at namespace scope, away from the function (and
/// class) that held its body. These queries say which of the names the body
/// and its captures use the kernel can still reach, and how: types it can
/// spell, types it receives as template arguments from the launch, class
/// members it must qualify, function-local declarations it must repeat, and
/// the names it cannot reach at all.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_KERNELSCOPE_H
#define HPP_REWRITE_LIB_OUTLINE_KERNELSCOPE_H

#include "Outline/OutlineError.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Core/Replacement.h"

#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// Where the declarations a type names live, worst first.
enum class TypeReach {
  Namespace,     ///< every name is declared at namespace scope: spell it
  LocalAlias,    ///< a function-local alias of a type that may be spellable
                 ///< (or a non-dependent decltype of a local)
  LaunchOnly,    ///< only the launch knows it (a generic lambda's `auto`, a
                 ///< dependent decltype): a template argument of the kernel
  Member,        ///< a public class member: a template argument of the kernel
  PrivateMember, ///< a private or protected member: CUDA refuses it
  Local,         ///< a class or lambda local to a function: CUDA refuses it
};

/// The reach of \p T and the declaration that decides it.
struct TypeReachResult {
  TypeReach Reach = TypeReach::Namespace;
  const clang::NamedDecl *Culprit = nullptr;
};

/// Where \p T's names live (its template arguments included).
TypeReachResult typeReach(clang::QualType T);

/// \p T with its function-local aliases (and decltypes of locals) replaced
/// by the types they stand for, where that can be spelled (a dependent one
/// keeps its template parameters' names); \p T itself when it cannot be.
clang::QualType withoutLocalAliases(clang::QualType T,
                                    const clang::ASTContext &Ctx);

/// A name the body uses that the kernel would not find where it is.
struct ScopedUse {
  enum Kind {
    Qualify,   ///< a public class member named unqualified: prefix it
    NonPublic, ///< a private or protected member: unreachable
    LocalType, ///< a class or enum local to the enclosing function
    NonStatic, ///< a non-static member reached through implicit `this`
  };
  Kind K;
  clang::SourceLocation Loc; ///< where the name is written
  const clang::NamedDecl *D; ///< what it names
  std::string Prefix;        ///< for Qualify: `ns::Class::` (or `typename`)
};

/// The names in \p LE's body that an outlined kernel must qualify or cannot
/// reach; class members that are constants are left out (the kernel copies
/// their values, see memberConstants).
std::vector<ScopedUse> scopedUses(clang::ASTContext &Ctx,
                                  const clang::LambdaExpr *LE);

/// Static data members the body names that are integer, enumerator, bool or
/// floating-point constants: the kernel declares them with their values,
/// which needs no access to the class.
std::vector<const clang::VarDecl *>
memberConstants(const clang::LambdaExpr *LE);

/// The function-local using-declarations, using-directives, namespace
/// aliases and type aliases in scope at \p LE (outermost first), which the
/// kernel repeats. Declarations inside the lambda are not included.
std::vector<const clang::Decl *> localScopeDecls(clang::ASTContext &Ctx,
                                                 const clang::LambdaExpr *LE);

/// Adds to \p Edits (relative to the body's `{`) the qualifiers of the
/// class members \p LE's body names; false (with \p Err) when the body
/// names something the kernel cannot reach.
bool qualifyScopedNames(clang::ASTContext &Ctx, const clang::LambdaExpr *LE,
                        clang::tooling::Replacements &Edits, OutlineError &Err);

/// The declarations to repeat at the top of the kernel (function-local
/// using-declarations and aliases in scope at \p LE), one per line.
std::string localScopeText(clang::ASTContext &Ctx, const clang::LambdaExpr *LE);

/// The outermost class definition whose text holds \p LE (whose enclosing
/// function is \p F), when the kernel must be defined after it to name its
/// members; null otherwise.
const clang::CXXRecordDecl *enclosingClass(const clang::FunctionDecl *F,
                                           const clang::LambdaExpr *LE);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_KERNELSCOPE_H
