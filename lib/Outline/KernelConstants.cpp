//===- KernelConstants.cpp - The constants an outlined kernel declares ----===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// KernelOutliner::declareConstants: the constants a body reads without
/// capturing them, declared in the kernel so that the kernel and the host
/// agree in every build (Analysis/ConstantOrigin.h says which are safe to copy
/// as values).
///
//===----------------------------------------------------------------------===//

#include "Analysis/Captures.h"
#include "Analysis/ConstantOrigin.h"
#include "Framework/Conditionals.h"
#include "Outline/KernelOutliner.h"
#include "Outline/KernelScope.h"
#include "Outline/KernelText.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// How the kernel gets one constant.
enum class Way {
  Value,     ///< `constexpr T K = 6;`: the source text alone fixes it
  Parameter, ///< `const T K` passed by the launch: the host's own value
  Text,      ///< `constexpr T K = <its initialiser>;`, in the same build
};
} // namespace

bool KernelOutliner::declareConstants(const LambdaExpr *LE,
                                      SourceLocation Before,
                                      std::vector<std::string> &Params,
                                      std::string &Args, std::string &Prologue,
                                      std::vector<CharSourceRange> &Copied,
                                      OutlineError &Err) const {
  const SourceManager &SM = Ctx.getSourceManager();
  ConditionalBlocks NoBlocks;
  const ConditionalBlocks &Conds = Blocks ? *Blocks : NoBlocks;

  // The constants the body names, then those their repeated initialisers
  // name; each with how the kernel gets it.
  std::vector<const VarDecl *> Order = uncapturedConstants(LE);
  for (const VarDecl *VD : memberConstants(LE))
    Order.push_back(VD);
  llvm::DenseMap<const VarDecl *, Way> How;
  llvm::DenseMap<const VarDecl *, std::optional<BuildDependence>> Dep;
  llvm::DenseMap<const VarDecl *, std::vector<const VarDecl *>> Needs;
  llvm::DenseMap<const VarDecl *, std::pair<std::string, CharSourceRange>> Text;
  // Decides \p VD, which a constant expression needs when \p Use is valid.
  std::function<bool(const VarDecl *, SourceLocation)> Decide =
      [&](const VarDecl *VD, SourceLocation Use) -> bool {
    auto [It, New] = How.try_emplace(VD, Way::Value);
    if (!New && (It->second != Way::Parameter || Use.isInvalid()))
      return true;
    if (New)
      Dep[VD] = buildDependence(VD, Conds, SM);
    if (!Dep[VD])
      return true;
    if (Use.isInvalid())
      Use = constantUse(LE, VD);
    if (Use.isInvalid()) {
      How[VD] = Way::Parameter;
      return true;
    }
    std::vector<const VarDecl *> Named;
    CharSourceRange Range;
    std::optional<std::string> Init =
        initialiserText(VD, Before, Conds, Ctx, Named, Range);
    if (!Init) {
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Use));
      Err = {VD->getLocation(),
             "cannot outline: the body needs '" + VD->getNameAsString() +
                 "' as a constant expression (line " +
                 std::to_string(P.isValid() ? P.getLine() : 0) +
                 "), and its value may differ in the build that compiles the "
                 "output: " +
                 Dep[VD]->Why +
                 "; the kernel can neither receive it from the host nor "
                 "repeat its declaration. Declare it constexpr at namespace "
                 "scope, where the kernel names it, or compute it in the "
                 "body"};
      return false;
    }
    How[VD] = Way::Text;
    Text[VD] = {*Init, Range};
    Needs[VD] = Named;
    for (const VarDecl *N : Named)
      if (!Decide(N, VD->getLocation()))
        return false;
    return true;
  };
  for (const VarDecl *VD : Order)
    if (!Decide(VD, SourceLocation()))
      return false;

  // Declared in order of first use, each after the constants its
  // initialiser names.
  llvm::SmallPtrSet<const VarDecl *, 8> Done;
  std::function<bool(const VarDecl *)> Emit = [&](const VarDecl *VD) {
    if (!Done.insert(VD).second)
      return true;
    for (const VarDecl *N : Needs[VD])
      if (!Emit(N))
        return false;
    auto TN = typeName(VD->getType().getNonReferenceType().getUnqualifiedType(),
                       false, VD->getLocation(), Err);
    if (!TN)
      return false;
    std::string Name = VD->getNameAsString();
    switch (How[VD]) {
    case Way::Parameter:
      Params.push_back("const " + *TN + " " + Name);
      Args += ", " + Name;
      return true;
    case Way::Text:
      Prologue +=
          "  constexpr " + *TN + " " + Name + " = " + Text[VD].first + ";\n";
      Copied.push_back(Text[VD].second);
      return true;
    case Way::Value:
      break;
    }
    std::optional<std::string> Value = constantText(Ctx, VD);
    if (!Value) {
      Err = {VD->getLocation(),
             "cannot outline: the body uses '" + Name +
                 "' without capturing it, and its value is not an integer, "
                 "enumerator or floating-point constant; capture it"};
      return false;
    }
    Prologue += "  constexpr " + *TN + " " + Name + " = " + *Value + ";\n";
    return true;
  };
  for (const VarDecl *VD : Order)
    if (!Emit(VD))
      return false;
  return true;
}

} // namespace rewrite
} // namespace hpp
