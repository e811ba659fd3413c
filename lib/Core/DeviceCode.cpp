//===- DeviceCode.cpp - Recognising device code ---------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Core/DeviceCode.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Lex/Lexer.h"

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

bool isDialectAPI(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "hpp" && NS->getParent()->isTranslationUnit())
        return true;
  return false;
}

CharSourceRange annotationRange(const AnnotateAttr *A,
                                const SourceManager &SM) {
  // The attribute is spelled inside the __device macro body; its expansion
  // range is the `__device(hpp)` text in the file.
  SourceLocation Loc = A->getLocation();
  if (!Loc.isMacroID())
    return CharSourceRange::getTokenRange(A->getRange());
  return SM.getExpansionRange(Loc);
}

std::string sourceText(CharSourceRange Range, const SourceManager &SM,
                       const LangOptions &LO) {
  return Lexer::getSourceText(Range, SM, LO).str();
}

} // namespace rewrite
} // namespace hpp
