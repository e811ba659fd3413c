//===- DeviceConstructCheck.cpp - What no GPU compiler builds -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Rules/DeviceConstructCheck.h"
#include "Analysis/DeviceCallGraph.h"
#include "Framework/DynamicASTVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

#include <string>
#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// The constructs of one body that no GPU compiler builds for the device.
class ConstructFinder : public DynamicASTVisitor {
public:
  struct Found {
    SourceLocation Loc;
    std::string What;
    /// Neither nvcc nor hipcc compiles it for the device.
    bool BothCompilers;
  };
  std::vector<Found> Out;

  bool VisitCXXTryStmt(CXXTryStmt *S) override {
    add(S->getTryLoc(), "a 'try' block: GPUs have no exceptions");
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) override {
    add(E->getThrowLoc(), "a 'throw': GPUs have no exceptions");
    return true;
  }
  bool VisitCXXTypeidExpr(CXXTypeidExpr *E) override {
    if (E->isPotentiallyEvaluated())
      add(E->getBeginLoc(), "'typeid' of a polymorphic object: GPUs have no "
                            "run-time type information");
    return true;
  }
  bool VisitCXXDynamicCastExpr(CXXDynamicCastExpr *E) override {
    add(E->getBeginLoc(), "a 'dynamic_cast': GPUs have no run-time type "
                          "information");
    return true;
  }
  bool VisitAsmStmt(AsmStmt *S) override {
    add(S->getAsmLoc(),
        "inline assembly: one vendor's instructions (PTX "
        "or AMD's), which the other's compiler and the CPU "
        "backend cannot take (write the intrinsic it stands "
        "for)",
        /*BothCompilers=*/false);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) override {
    if (VD->getTLSKind() != VarDecl::TLS_None)
      add(VD->getLocation(), "a 'thread_local' variable: a GPU thread has "
                             "no thread-local storage");
    else if (VD->getType()->isVariableArrayType())
      add(VD->getLocation(), "a variable-length array: its size must be a "
                             "constant in device code");
    return true;
  }

private:
  void add(SourceLocation Loc, std::string What, bool BothCompilers = true) {
    Out.push_back({Loc, std::move(What), BothCompilers});
  }
};

} // namespace

void DeviceConstructCheck::onEndOfTranslationUnit(ASTContext &AST) {
  const SourceManager &SM = AST.getSourceManager();
  llvm::DenseSet<SourceLocation> Reported;
  for (const FunctionDecl *F : Ctx.deviceGraph().functions()) {
    if (!F->getBody() || SM.isInSystemHeader(F->getLocation()))
      continue;
    ConstructFinder Finder;
    Finder.TraverseStmt(F->getBody());
    for (const auto &[Loc, What, BothCompilers] : Finder.Out) {
      SourceLocation At = SM.getExpansionLoc(Loc);
      if (Reported.insert(At).second)
        error(At, "device code uses " + What +
                      (BothCompilers ? "; nvcc and hipcc do not compile it "
                                       "for the device"
                                     : ""));
    }
  }
}

} // namespace rewrite
} // namespace hpp
