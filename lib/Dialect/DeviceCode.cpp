//===- DeviceCode.cpp - Recognising device code ---------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Dialect/DeviceCode.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace hpp {
namespace rewrite {

static constexpr llvm::StringLiteral AnnotationPrefix = "hpp.device.";

bool isInsideDeviceFunction(const LambdaExpr *LE) {
  for (const DeclContext *DC = LE->getLambdaClass()->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC);
        FD && getDeviceAnnotation(FD))
      return true;
  return false;
}

const AnnotateAttr *getDeviceAnnotation(const Decl *D, llvm::StringRef Kind) {
  if (!D)
    return nullptr;
  for (const Decl *R : D->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>()) {
      llvm::StringRef Ann = A->getAnnotation();
      if (Ann.consume_front(AnnotationPrefix) && Ann == Kind)
        return A;
    }
  return nullptr;
}

std::optional<std::string> deviceValueProblem(QualType T,
                                              const ASTContext &Ctx) {
  if (T.isNull() || T->isDependentType() || T->isVoidType() ||
      T.isTriviallyCopyableType(Ctx))
    return std::nullopt;
  return "'" + T.getAsString() +
         "' is not trivially copyable: its values are made in device code "
         "and copied between device and host memory byte for byte; use a "
         "trivially copyable type (a struct of its members for a std::pair, "
         "a fixed-size array for a std::string or a std::vector)";
}

bool isInDialectHeader(SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isInvalid())
    return false;
  OptionalFileEntryRef FE =
      SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)));
  if (!FE)
    return false;
  llvm::StringRef Dir = llvm::sys::path::parent_path(FE->getName());
  for (; !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    if (llvm::sys::path::filename(Dir) != "hpp")
      continue;
    FileManager &FM = SM.getFileManager();
    for (const char *Top : {"hpp.h", "runtime.h"})
      if (FM.getOptionalFileRef((Dir + "/" + Top).str()))
        return true;
    return false;
  }
  return false;
}

bool isDialectAPI(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "hpp" && NS->getParent()->isTranslationUnit())
        return true;
  return false;
}

CharSourceRange annotationInvocation(const AnnotateAttr *A,
                                     const SourceManager &SM) {
  // The attribute is spelled inside the __device macro body. When a macro's
  // argument held the invocation, the attribute's tokens reached the code
  // through that argument's substitution: step back through it (the
  // substitution's own expansion range is the parameter in that macro's
  // body, not the invocation).
  SourceLocation Loc = A->getLocation();
  while (Loc.isMacroID() && SM.isMacroArgExpansion(Loc))
    Loc = SM.getImmediateSpellingLoc(Loc);
  if (!Loc.isMacroID())
    return CharSourceRange::getTokenRange(A->getRange());
  return SM.getImmediateExpansionRange(Loc);
}

CharSourceRange annotationRange(const AnnotateAttr *A,
                                const SourceManager &SM) {
  CharSourceRange Invocation = annotationInvocation(A, SM);
  if (!Invocation.getBegin().isMacroID() && !Invocation.getEnd().isMacroID())
    return Invocation;
  CharSourceRange File =
      Lexer::makeFileCharRange(Invocation, SM, LangOptions());
  return File.isValid() ? File : Invocation;
}

std::string sourceText(CharSourceRange Range, const SourceManager &SM,
                       const LangOptions &LO) {
  return Lexer::getSourceText(Range, SM, LO).str();
}

} // namespace rewrite
} // namespace hpp
