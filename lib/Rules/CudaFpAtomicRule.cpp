//===- CudaFpAtomicRule.cpp - Fast float atomics, cudaMalloc --------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/CudaFpAtomicRule.h"
#include "Analysis/CoarseGrained.h"
#include "Analysis/DeviceCodeMap.h"
#include "Analysis/LaneMask.h"
#include "Framework/DynamicASTVisitor.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// A call of atomicAdd on a float or a double.
struct FpAtomicCall {
  const CallExpr *Call;
  /// `float` or `double`.
  QualType Pointee;
  /// In a template's instantiation (else as written).
  bool InInstantiation;
};

/// The float or double that \p CE, a resolved call of the global
/// atomicAdd, adds to; a null type for any other call.
QualType fpAtomicPointee(const CallExpr *CE) {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F || F->getNumParams() != 2 || globalCalleeName(CE) != "atomicAdd")
    return QualType();
  const auto *PT = F->getParamDecl(0)->getType()->getAs<PointerType>();
  if (!PT)
    return QualType();
  QualType T = PT->getPointeeType().getUnqualifiedType();
  return T->isSpecificBuiltinType(BuiltinType::Float) ||
                 T->isSpecificBuiltinType(BuiltinType::Double)
             ? T
             : QualType();
}

/// The calls of atomicAdd of the traversal scope, as written and in
/// instantiations; the places of those a template leaves unresolved.
class FpAtomicFinder : public DynamicASTVisitor {
public:
  FpAtomicFinder() { ShouldVisitTemplateInstantiations = true; }

  bool TraverseDecl(Decl *D) override {
    bool Instance = false;
    if (const auto *FD = dyn_cast_or_null<FunctionDecl>(D))
      Instance = isTemplateInstantiation(FD->getTemplateSpecializationKind());
    else if (const auto *CD =
                 dyn_cast_or_null<ClassTemplateSpecializationDecl>(D))
      Instance = isTemplateInstantiation(CD->getSpecializationKind());
    Instances += Instance;
    bool Ok = DynamicASTVisitor::TraverseDecl(D);
    Instances -= Instance;
    return Ok;
  }

  bool VisitCallExpr(CallExpr *CE) override {
    if (!CE->getDirectCallee()) {
      if (globalCalleeName(CE) == "atomicAdd")
        Dependent.insert(CE->getBeginLoc().getRawEncoding());
      return true;
    }
    if (QualType T = fpAtomicPointee(CE); !T.isNull())
      Calls.push_back({CE, T, Instances > 0});
    return true;
  }

  std::vector<FpAtomicCall> Calls;
  /// Where a template's pattern calls atomicAdd unresolved.
  llvm::DenseSet<unsigned> Dependent;

private:
  unsigned Instances = 0;
};

} // namespace

void CudaFpAtomicRule::onEndOfTranslationUnit(ASTContext &AST) {
  if (!AST.getLangOpts().CUDA || AST.getDiagnostics().hasErrorOccurred())
    return;
  FpAtomicFinder Finder;
  Finder.TraverseAST(AST);
  if (Finder.Calls.empty())
    return;
  const SourceManager &SM = AST.getSourceManager();
  const LangOptions &LO = AST.getLangOpts();
  const DeviceCodeMap &Code = Ctx.deviceCode();
  CoarseGrainedParams Facts(AST);

  for (const FpAtomicCall &C : Finder.Calls) {
    SourceLocation At = SM.getExpansionLoc(C.Call->getBeginLoc());
    if (!isWrittenInRewrittenFile(SM, At) || !Code.contains(At))
      continue;
    std::vector<CoarseGrainedNote> Why;
    const auto *Callee =
        dyn_cast<DeclRefExpr>(C.Call->getCallee()->IgnoreParenImpCasts());
    const DeclRefExpr *Base = pointerBase(C.Call->getArg(0));
    const auto *Var = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    // Shared memory: the hardware's atomic on AMD already.
    if (Var && Var->hasAttr<CUDASharedAttr>())
      continue;
    if (C.InInstantiation) {
      // A resolved call of a pattern is decided there, once.
      if (!Finder.Dependent.contains(C.Call->getBeginLoc().getRawEncoding()))
        continue;
      Why.push_back({At, "the call is in a template, where the pointer's type "
                         "depends on a template parameter: the text serves "
                         "every instantiation"});
    } else if (!Callee || Callee->getBeginLoc().isMacroID() ||
               Callee->getEndLoc().isMacroID()) {
      SourceLocation Name = C.Call->getCallee()->getExprLoc();
      Why.push_back({SM.getSpellingLoc(Name),
                     "the call is written inside the macro '" +
                         Lexer::getImmediateMacroName(Name, SM, LO).str() +
                         "', which the tool does not edit"});
    } else if (const auto *P = dyn_cast_or_null<ParmVarDecl>(Var); !P) {
      Why.push_back({C.Call->getArg(0)->getBeginLoc(),
                     "the address is not a pointer parameter of the kernel "
                     "('p', 'p + i', '&p[i]'), which the tool follows"});
    } else if (const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
               !F || !(F->hasAttr<CUDAGlobalAttr>() ||
                       F->hasAttr<CUDADeviceAttr>())) {
      Why.push_back({P->getLocation(), "the pointer is no parameter of a "
                                       "kernel or device function"});
    } else {
      llvm::ArrayRef<CoarseGrainedNote> Notes =
          Facts.whyNot(F, P->getFunctionScopeIndex());
      if (Notes.empty()) {
        Ctx.Edits.replace(
            CharSourceRange::getTokenRange(Callee->getSourceRange()),
            "hpp::unsafeAtomicAdd", Name);
        continue;
      }
      Why.assign(Notes.begin(), Notes.end());
    }
    remark(At, "'atomicAdd' on '" + C.Pointee.getAsString() +
                   "' stays the safe form (a compare-and-swap loop on AMD): "
                   "its memory is not known to be coarse-grained "
                   "(cudaMalloc's), the only memory where the faster "
                   "'hpp::unsafeAtomicAdd' is right");
    for (const CoarseGrainedNote &N : Why)
      note(SM.getExpansionLoc(N.Loc), N.What);
  }
}

} // namespace rewrite
} // namespace hpp
