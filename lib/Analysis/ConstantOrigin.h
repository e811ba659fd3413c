//===- ConstantOrigin.h - Constants whose value the build decides -*- C++
//-*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A body may read a constant of its function without capturing it
/// (`const int K = HPPN * 2;`, not an odr-use) or a constant static member
/// of its class. The outlined kernel must declare it; declaring it with the
/// value the tool computed while parsing is right only if every build that
/// compiles the output computes that value too. It does not when the value
/// comes through the preprocessor: a macro (`HPPN`, `NDEBUG`, a `-D` of the
/// build), a declaration chosen by `#if`, a call whose body the build may
/// compile differently, the size of a type the build may lay out
/// differently. The kernel and the host would then disagree, silently.
///
/// These queries tell the outliner which constants it may copy as values,
/// which the kernel must receive from the host (a parameter: the host's own
/// value), and which it must declare by repeating their initialiser's text,
/// where the build expands the same macros (Outline/MacroRestate.h makes sure
/// of that).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_CONSTANTORIGIN_H
#define HPP_REWRITE_LIB_ANALYSIS_CONSTANTORIGIN_H

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

class ConditionalBlocks;

/// Why a constant's value may differ in the build that compiles the
/// output, and where that comes from.
struct BuildDependence {
  clang::SourceLocation Loc;
  std::string Why; ///< "it expands the macro 'HPPN'", ...
};

/// Why the value of \p VD (a constant the outliner would copy) may differ
/// in another build of the same source: its initialiser, or that of a
/// constant it reads, expands a macro, calls a function, takes the size of
/// a class, or is declared inside an `#if` block (\p Blocks). std::nullopt
/// when its value is fixed by the source text alone.
std::optional<BuildDependence> buildDependence(const clang::VarDecl *VD,
                                               const ConditionalBlocks &Blocks,
                                               const clang::SourceManager &SM);

/// The first place in \p LE's body where \p VD is read as part of a
/// constant expression (an array bound, a template argument, a case
/// label, a `static_assert`, the initialiser of a constant), where a
/// kernel parameter would not do; invalid when every read is of a value.
clang::SourceLocation constantUse(const clang::LambdaExpr *LE,
                                  const clang::VarDecl *VD);

/// The initialiser of \p VD as text that means the same at namespace
/// scope before \p Before: its tokens are literals, operators, macros,
/// casts to and sizes of built-in types, and names of namespace-scope
/// constants declared before \p Before and of the function-local constants
/// it returns in \p Locals (which the kernel must declare first). Not when
/// \p VD is declared inside an `#if` block, or its initialiser is not
/// written in the main file outside any macro.
std::optional<std::string>
initialiserText(const clang::VarDecl *VD, clang::SourceLocation Before,
                const ConditionalBlocks &Blocks, const clang::ASTContext &Ctx,
                std::vector<const clang::VarDecl *> &Locals,
                clang::CharSourceRange &Range);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_CONSTANTORIGIN_H
