//===- LaneMask.h - Lane masks in device code -------------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the warp rules need to know about lane masks: calls of the CUDA warp
/// intrinsics (lib/Dialect/WarpIntrinsics.def), mask literals, and which
/// values of device code are masks. A mask is a `__ballot_sync` or
/// `__activemask` result, a variable that holds one, the lane-mask argument
/// of a warp intrinsic, or a bit operation (`& | ^ ~`, `?:`, `m - 1`) on a
/// mask; the variables that exchange values with a mask (initialisation,
/// assignment, argument to parameter, the other operand of a bit operation
/// or of `==`/`!=`) are masks too, followed through all device code of the
/// translation unit to a fixed point. A full-mask literal alone does not
/// make a variable a mask (a hash seed may be 0xffffffff); a mask use does.
/// A lane bit `1u << lane` in a mask is shifted as a LaneMask.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_ANALYSIS_LANEMASK_H
#define HPP_REWRITE_LIB_ANALYSIS_LANEMASK_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <vector>

namespace hpp {
namespace rewrite {

/// A call of a global function named in \p Names, resolved or (in a
/// template) unresolved; the call is bound to "call", its callee to
/// "callee".
clang::ast_matchers::StatementMatcher
globalCallTo(llvm::ArrayRef<llvm::StringRef> Names);

/// The CUDA names of the warp intrinsics of WarpIntrinsics.def.
llvm::ArrayRef<llvm::StringRef> warpIntrinsicNames();

/// The hpp:: name (`shflSync`, ...) of the warp intrinsic \p Name
/// (`__shfl_sync`, ...), or "".
llvm::StringRef warpOperation(llvm::StringRef Name);

/// The name of the global function \p CE calls ("" for anything else).
llvm::StringRef globalCalleeName(const clang::CallExpr *CE);

/// The lane-mask argument of a call of a warp intrinsic or `__syncwarp`
/// (argument 0 as written), or null.
const clang::Expr *laneMaskArgument(const clang::CallExpr *CE);

/// Whether the lane mask of \p CE is 64 bits wide, as written and as the
/// callee takes it: the dialect's intrinsics take any mask type, CUDA's an
/// `unsigned` that cuts a 64-bit value to the first 32 lanes (a 32-bit
/// mask). False without a mask or when its type is dependent.
bool isWideLaneMask(const clang::CallExpr *CE, const clang::ASTContext &Ctx);

/// The hpp:: name (`popcMask`, ...) of the mask bit function \p Name
/// (`__popc`, ...), or "".
llvm::StringRef maskBitFunction(llvm::StringRef Name);

/// What an integer expression made of literals only is as a lane mask.
enum class MaskLiteral {
  None,    ///< Not made of literals only.
  Empty,   ///< 0.
  Full,    ///< Every lane: 0xffffffff, ~0u, -1, 0xffffffffffffffff, ...
  Low,     ///< Some of the first 15 lanes (1, 0xff): the same on any width.
  Partial, ///< Some lanes up to lane 15 or beyond (0x0000ffff, 0xffff0000):
           ///< a part of a 32-lane warp.
};
MaskLiteral classifyMaskLiteral(const clang::Expr *E,
                                const clang::ASTContext &Ctx);

/// True for an integer type narrower than 64 bits (not bool): a variable
/// of that type cannot hold a wave64 mask.
bool isNarrowInteger(clang::QualType T, const clang::ASTContext &Ctx);

/// The written type specifier of \p D without qualifiers (`unsigned` in
/// `const unsigned m` and in `unsigned &m`), or an invalid range when it is
/// deduced (`auto`) or \p D is a pointer, array or function.
clang::SourceRange typeSpecifierRange(const clang::DeclaratorDecl *D);

/// The file range of \p E for an edit: the written tokens, or a whole macro
/// expansion (`FULL_MASK`); the token range as is when neither applies.
clang::CharSourceRange editRange(const clang::Expr *E,
                                 const clang::SourceManager &SM,
                                 const clang::LangOptions &LO);

/// A mask that reaches a place whose type the tool does not change.
struct MaskEscape {
  enum KindT { Field, Element, Parameter, OuterVariable, Return };
  KindT Kind;
  const clang::Expr *At;          ///< The mask (or the store).
  const clang::NamedDecl *Target; ///< Field, array, parameter, ...; or null.
  clang::QualType Type;           ///< The narrow type it is stored as.
};

/// The lane masks of all device code of a translation unit.
class LaneMaskFlow {
public:
  /// Adds a root of device code: a `__device(hpp)` function, or a
  /// parallelFor body (\p Body of the lambda call operator \p F). The
  /// parameters of root functions are editable.
  void addRoot(const clang::FunctionDecl *F, const clang::Stmt *Body,
               bool EditableParameters);

  /// Analyses the roots added so far.
  void solve(const clang::ASTContext &Ctx);

  /// True when \p E is a mask.
  bool isMask(const clang::Expr *E) const;

  /// Variables and parameters of device code that hold masks, in source
  /// order of discovery.
  llvm::ArrayRef<const clang::VarDecl *> maskVariables() const {
    return MaskVars.getArrayRef();
  }
  /// True when \p VD holds masks.
  bool isMaskVariable(const clang::VarDecl *VD) const {
    return MaskVars.contains(VD);
  }
  /// True when \p VD is declared in device code (its type may be edited).
  bool isLocal(const clang::VarDecl *VD) const { return Locals.count(VD); }
  /// Every variable of device code declared by the declaration whose type
  /// specifier starts at \p Loc (`unsigned a, b;`).
  llvm::ArrayRef<const clang::VarDecl *>
  sharingTypeSpecifier(clang::SourceLocation Loc) const;

  /// Literal-only expressions in mask positions, outermost.
  llvm::ArrayRef<const clang::Expr *> maskLiterals() const {
    return Literals.getArrayRef();
  }
  /// True when \p Lit (of maskLiterals()) is a mask by itself, not an
  /// operand of a bit operation.
  bool isWholeMask(const clang::Expr *Lit) const {
    return WholeLiterals.count(Lit);
  }
  /// True when \p Lit (of maskLiterals()) is shifted into lane positions
  /// (the `1u` of `1u << lane`).
  bool isShifted(const clang::Expr *Lit) const {
    return ShiftedLiterals.count(Lit);
  }
  /// `__popc(x)`, `__ffs(x)`, `__clz(x)` calls whose argument is a mask.
  const std::vector<const clang::CallExpr *> &bitCalls() const {
    return MaskBitCalls;
  }
  const std::vector<MaskEscape> &escapes() const { return Escapes; }

private:
  friend class FlowCollector;
  /// Values that are all masks if any is: a variable and a value it gets,
  /// the operands of a bit operation, a mask argument (Forced).
  struct Group {
    llvm::SmallVector<const clang::Expr *, 2> Values;
    const clang::VarDecl *Var = nullptr;
    const clang::Expr *VarSite = nullptr; ///< Where Var gets the value.
    bool Forced = false;
    bool Mask = false;
  };
  /// A value stored where the tool cannot change the type.
  struct Sink {
    MaskEscape Escape;
    const clang::Expr *Value;
  };

  bool markVariable(const clang::VarDecl *VD, const clang::Expr *Site,
                    const clang::ASTContext &Ctx);

  struct Root {
    const clang::FunctionDecl *F;
    const clang::Stmt *Body;
  };
  std::vector<Root> Roots;
  llvm::DenseSet<const clang::FunctionDecl *> EditableFunctions;
  llvm::DenseSet<const clang::VarDecl *> Locals;
  llvm::DenseMap<clang::SourceLocation,
                 llvm::SmallVector<const clang::VarDecl *, 1>>
      BySpecifier;
  std::vector<Group> Groups;
  std::vector<Sink> Sinks;
  std::vector<const clang::CallExpr *> BitCallCandidates;

  llvm::SetVector<const clang::VarDecl *> MaskVars;
  llvm::DenseSet<const clang::VarDecl *> OuterReported;
  llvm::SetVector<const clang::Expr *> Literals;
  llvm::DenseSet<const clang::Expr *> WholeLiterals;
  llvm::DenseSet<const clang::Expr *> ShiftedLiterals;
  std::vector<const clang::CallExpr *> MaskBitCalls;
  std::vector<MaskEscape> Escapes;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_ANALYSIS_LANEMASK_H
