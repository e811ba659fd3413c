//===- KernelText.cpp - The outlined kernel's text ------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Outline/KernelText.h"
#include "Dialect/DeviceCode.h"
#include "Framework/LineDirectives.h"
#include "Outline/KernelScope.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"

#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {

std::optional<std::string>
kernelTypeName(const ASTContext &Ctx, QualType T, bool AddConst,
               SourceLocation Loc, OutlineError &Err,
               llvm::function_ref<std::string()> AsTemplate) {
  if (const auto *DT = T->getContainedDeducedType())
    if (!DT->getDeducedType().isNull() && isa<AutoType>(T.getTypePtr()))
      T = DT->getDeducedType();
  TypeReachResult R = typeReach(T);
  // `auto` not deduced here (an init-capture in a template): the launch
  // knows it.
  if (const auto *DT = T->getContainedDeducedType();
      DT && DT->getDeducedType().isNull())
    R = {TypeReach::LaunchOnly, nullptr};
  if (R.Reach == TypeReach::LocalAlias) {
    // A function-local alias (or a decltype): the type it stands for.
    T = withoutLocalAliases(T, Ctx);
    R = typeReach(T);
    if (R.Reach == TypeReach::LocalAlias)
      R = {TypeReach::LaunchOnly, R.Culprit};
  }
  std::string Culprit =
      R.Culprit ? R.Culprit->getQualifiedNameAsString() : T.getAsString();
  if (R.Reach == TypeReach::Local) {
    Err = {Loc, "cannot outline: a capture has type '" + T.getAsString() +
                    "', which is local to the function; a kernel at "
                    "namespace scope cannot name it"};
    return std::nullopt;
  }
  if (R.Reach == TypeReach::PrivateMember) {
    Err = {Loc, "cannot outline: a capture has type '" + T.getAsString() +
                    "', which names '" + Culprit +
                    "', a private or protected class member; CUDA does not "
                    "allow it in a kernel's parameters; make it public"};
    return std::nullopt;
  }
  std::string S;
  if ((R.Reach == TypeReach::Member || R.Reach == TypeReach::LaunchOnly) &&
      AsTemplate) {
    S = AsTemplate();
  } else if (R.Reach == TypeReach::LaunchOnly) {
    Err = {Loc, "cannot outline: the type '" + T.getAsString() +
                    "' is known only where the kernel is launched (a generic "
                    "lambda's parameter, a dependent decltype), and the "
                    "kernel cannot name it here"};
    return std::nullopt;
  } else if (R.Reach == TypeReach::Member) {
    Err = {Loc, "cannot outline: the type '" + T.getAsString() + "' names '" +
                    Culprit +
                    "', a class member, which the kernel cannot name here"};
    return std::nullopt;
  } else {
    PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.SuppressUnwrittenScope = true;
    S = TypeName::getFullyQualifiedName(T.getUnqualifiedType(), Ctx, Policy);
  }
  if (AddConst || T.isConstQualified())
    S = "const " + S;
  return S;
}

std::optional<std::string> constantText(const ASTContext &Ctx,
                                        const VarDecl *VD) {
  QualType T = VD->getType().getNonReferenceType().getUnqualifiedType();
  const APValue *V = VD->evaluateValue();
  if (!V || VD->getType()->isReferenceType())
    return std::nullopt;
  if (V->isInt() && T->isIntegralOrEnumerationType()) {
    std::string S = toString(V->getInt(), 10);
    if (T->isBooleanType())
      return std::string(V->getInt().getBoolValue() ? "true" : "false");
    if (!T->isEnumeralType())
      return S;
    OutlineError Ignored;
    auto TN = kernelTypeName(Ctx, T, false, VD->getLocation(), Ignored);
    if (!TN)
      return std::nullopt;
    return "static_cast<" + *TN + ">(" + S + ")";
  }
  if (V->isFloat() && T->isRealFloatingType()) {
    // Hexadecimal: exact.
    llvm::SmallString<32> Hex;
    char Buf[64];
    unsigned N = V->getFloat().convertToHexString(
        Buf, 0, false, llvm::APFloat::rmNearestTiesToEven);
    Hex.append(Buf, Buf + N);
    const BuiltinType *BT = T->getAs<BuiltinType>();
    if (BT && BT->getKind() == BuiltinType::Float)
      Hex += "f";
    else if (BT && BT->getKind() == BuiltinType::LongDouble)
      Hex += "L";
    return std::string(Hex);
  }
  return std::nullopt;
}

std::string bodyText(const ASTContext &Ctx, const LineDirectives *Lines,
                     const LambdaExpr *LE,
                     const tooling::Replacements &BodyEdits) {
  const SourceManager &SM = Ctx.getSourceManager();
  const CompoundStmt *Body = LE->getCompoundStmtBody();
  std::string Text =
      sourceText(CharSourceRange::getTokenRange(Body->getSourceRange()), SM,
                 Ctx.getLangOpts());
  tooling::Replacements Edits = BodyEdits;
  SourceLocation LBrace = Body->getLBracLoc();
  if (Lines && SM.isWrittenInMainFile(LBrace) && LBrace.isFileID()) {
    // Re-emitted behind its own directive; the lines after an edit that
    // changed its line count synced.
    unsigned Begin = SM.getFileOffset(LBrace);
    Lines->cover(Begin, Begin + Text.size());
    if (!Edits.empty())
      Edits = Lines->synced(BodyEdits, Begin, Begin + Text.size());
  }
  if (!Edits.empty()) {
    auto Edited = tooling::applyAllReplacements(Text, Edits);
    if (Edited)
      Text = std::move(*Edited);
    else
      llvm::consumeError(Edited.takeError());
  }
  // Re-indent so the body's closing brace sits at the kernel's indent (2);
  // relative indentation and comments are kept as written.
  int Shift = int(SM.getSpellingColumnNumber(Body->getRBracLoc())) - 1 - 2;
  std::string Out;
  llvm::StringRef Rest = Text;
  bool First = true;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    if (!First) {
      Out += '\n';
      if (Shift > 0) {
        size_t Blank = Line.find_first_not_of(' ');
        Line = Line.drop_front(std::min<size_t>(
            Shift, Blank == llvm::StringRef::npos ? Line.size() : Blank));
      } else if (Shift < 0 && !Line.empty()) {
        Out.append(-Shift, ' ');
      }
    }
    Out += Line;
    First = false;
    Rest = Tail;
  }
  return Out;
}

std::string wrapSignature(const std::string &Head,
                          const std::vector<std::string> &Params,
                          llvm::StringRef Tail) {
  constexpr size_t Limit = 80;
  std::string OneLine = Head;
  for (size_t I = 0; I < Params.size(); ++I)
    OneLine += (I ? ", " : "") + Params[I];
  OneLine += Tail.str();
  if (OneLine.size() <= Limit)
    return OneLine;
  size_t Indent = Head.size() <= Limit / 2 ? Head.size() : 4;
  std::string Out = Indent == 4 ? Head + "\n    " : Head;
  size_t Column = Indent;
  for (size_t I = 0; I < Params.size(); ++I) {
    std::string Piece = Params[I] + (I + 1 < Params.size() ? "," : Tail.str());
    if (I && Column + 1 + Piece.size() > Limit) {
      Out += "\n" + std::string(Indent, ' ');
      Column = Indent;
    } else if (I) {
      Out += ' ';
      ++Column;
    }
    Out += Piece;
    Column += Piece.size();
  }
  return Out;
}

} // namespace rewrite
} // namespace hpp
