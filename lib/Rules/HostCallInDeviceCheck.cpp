//===- HostCallInDeviceCheck.cpp ------------------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/HostCallInDeviceCheck.h"
#include "Analysis/DeviceCallGraph.h"
#include "Framework/RewriteScope.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace hpp {
namespace rewrite {

/// Whether \p T names std::vector or its iterator.
static bool isVectorOrIterator(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return false;
  std::string Name = RD->getQualifiedNameAsString();
  return Name == "std::vector" || Name == "__gnu_cxx::__normal_iterator";
}

/// Whether \p FD operates on a std::vector or its iterators (not a
/// constructor): in device code that vector can only be a channel
/// consumer's batch (a local one is made by a constructor, which is
/// reported; a captured one by hpp-host-state-in-device), which becomes an
/// hpp::Span whose uses hpp-channel checks.
static bool isBatchOperation(const FunctionDecl *FD) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
    return !isa<CXXConstructorDecl>(M) &&
           isVectorOrIterator(QualType(M->getParent()->getTypeForDecl(), 0));
  return FD->getNumParams() > 0 &&
         isVectorOrIterator(FD->getParamDecl(0)->getType());
}

void HostCallInDeviceCheck::onEndOfTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  for (const DeviceCallGraph::Call &C : Ctx.deviceGraph().calls()) {
    if (DeviceCallGraph::classify(C.Callee, SM) != CalleeKind::Host)
      continue;
    const FunctionDecl *Callee = C.Callee->getMostRecentDecl();
    std::string Name = Callee->getQualifiedNameAsString();
    if (SM.isInSystemHeader(Callee->getLocation())) {
      if (isBatchOperation(Callee))
        continue;
      // The host's C++ library: nvcc compiles none of it for the device
      // (constexpr functions included) but the math functions.
      llvm::StringRef Id =
          Callee->getIdentifier() ? Callee->getName() : llvm::StringRef();
      bool MinMax = (Id == "min" || Id == "max") && !isa<CXXMethodDecl>(Callee);
      {
        auto B = error(C.Loc, "device code calls '" + Name +
                                  "' of the host's C++ library, which nvcc "
                                  "does not compile for the device");
        // std::min / std::max: the dialect's hpp::math::min / max.
        if (MinMax && C.Loc.isFileID()) {
          SourceLocation NameLoc = C.NameLoc.isValid() ? C.NameLoc : C.Loc;
          if (NameLoc.isFileID())
            B << FixItHint::CreateReplacement(
                CharSourceRange::getCharRange(
                    C.Loc, NameLoc.getLocWithOffset(Id.size())),
                ("hpp::math::" + Id).str());
        }
      }
      note(C.Loc, MinMax ? "use hpp::math::" + Id.str() +
                               ", which the dialect defines for host and "
                               "device code alike"
                         : std::string("only the math functions of <cmath> "
                                       "and <cstdlib>, std::move and "
                                       "std::forward are device code there "
                                       "(constexpr functions only with "
                                       "--expt-relaxed-constexpr); write "
                                       "the operation in the body or in a "
                                       "__device(hpp) function"));
      continue;
    }
    {
      auto B = error(C.Loc, "device code calls '" + Name +
                                "', which is not '__device(hpp)', inline "
                                "or a template");
      const FunctionDecl *Def = Callee->getDefinition();
      if (Def && isWrittenInRewrittenFile(SM, Def->getInnerLocStart()))
        B << FixItHint::CreateInsertion(Def->getInnerLocStart(),
                                        "__device(hpp) ");
    }
    note(Callee->getLocation(), "'" + Name +
                                    "' declared here; mark it "
                                    "'__device(hpp)' to compile it "
                                    "for the device");
  }
}

} // namespace rewrite
} // namespace hpp
