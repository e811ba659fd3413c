//===- HostCallInDeviceCheck.cpp ------------------------------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/HostCallInDeviceCheck.h"
#include "Core/DeviceCallGraph.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace hpp {
namespace rewrite {

void HostCallInDeviceCheck::onEndOfTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  for (const DeviceCallGraph::Call &C : Ctx.deviceGraph().calls()) {
    if (DeviceCallGraph::classify(C.Callee, SM) != CalleeKind::Host)
      continue;
    const FunctionDecl *Callee = C.Callee->getMostRecentDecl();
    std::string Name = Callee->getQualifiedNameAsString();
    {
      auto B = error(C.Loc, "device code calls '" + Name +
                                "', which is not '__device(hpp)', inline "
                                "or a template");
      const FunctionDecl *Def = Callee->getDefinition();
      if (Def && SM.isWrittenInMainFile(Def->getInnerLocStart()))
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
