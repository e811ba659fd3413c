//===- BatchUses.cpp - What a consumer does with its batch ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// batchUseProblems() (Dialect/Channels.h). A consumer's `std::vector<T>`
/// batch becomes the launch's `hpp::Span<T>`: the uses a Span does not have
/// are refused. A batch by value is, in the reference, one copy per
/// work-item, which the work-item may modify; in the rewrite the same code
/// would modify the launch's batch, which every work-item reads. So every
/// possible modification of the copy is refused too: an element assigned,
/// incremented, bound to a non-const reference or the object of a
/// non-const member function, and a pointer or iterator into the batch
/// that may be written through (Dialect/BatchHandles.h).
///
//===----------------------------------------------------------------------===//

#include "Dialect/BatchHandles.h"
#include "Dialect/Channels.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {

/// Finds the uses of a consumer's `std::vector<T>` batch parameter that
/// the Span it becomes does not have, and, by value, its modifications.
class BatchUses {
public:
  BatchUses(const ParmVarDecl *Batch, BatchSpelling Spelling,
            std::vector<ChannelProblem> &Out)
      : Batch(Batch), Handles(Batch), Spelling(Spelling), Out(Out) {}

  /// Walks \p S, keeping the path from the body down to it.
  void walk(const Stmt *S) {
    if (!S)
      return;
    Path.push_back(S);
    visit(S);
    Path.pop_back();
  }

private:
  void visit(const Stmt *S);

  std::string name() const { return "'" + Batch->getNameAsString() + "'"; }
  std::string element() const {
    QualType T = Batch->getType().getNonReferenceType();
    const auto *Spec =
        cast<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
    return Spec->getTemplateArgs()[0].getAsType().getAsString(
        Batch->getASTContext().getPrintingPolicy());
  }
  std::string span() const { return "hpp::Span<" + element() + ">"; }
  std::string byValue() const {
    return name() +
           " is a std::vector by value, one copy per work-item, "
           "but the rewritten consumer reads the launch's batch in "
           "place (an " +
           span() + ")";
  }

  void modified(SourceLocation Loc) {
    Out.push_back(
        {Loc, "this modifies the consumer's copy of the batch: " + byValue() +
                  "; copy the element into a local variable"});
  }
  void checkModification(const Expr *E);
  /// Reports the element (\p Handle false) or the pointer into the batch
  /// (\p Handle true) at the end of Path, written at \p Loc, when its
  /// context may write through it.
  void checkContext(SourceLocation Loc, bool Handle);

  const ParmVarDecl *Batch;
  BatchHandles Handles;
  BatchSpelling Spelling;
  std::vector<ChannelProblem> &Out;
  std::vector<const Stmt *> Path;
};

void BatchUses::checkModification(const Expr *E) {
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(E);
           UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
           Op && Op->getNumArgs() &&
           (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
            Op->getOperator() == OO_MinusMinus))
    Target = Op->getArg(0);
  if (Handles.isPlace(Target))
    modified(E->getExprLoc());
}

void BatchUses::checkContext(SourceLocation Loc, bool Handle) {
  if (Spelling != BatchSpelling::VectorCopy || Handles.onlyReads(Path, Handle))
    return;
  if (Handle)
    Out.push_back(
        {Loc, "this may write through a pointer or iterator into the "
              "consumer's copy of the batch: " +
                  byValue() + "; read the element in the same expression (*" +
                  Batch->getNameAsString() + ".begin(), " +
                  Batch->getNameAsString() +
                  ".data()[k]), keep a pointer to const (const " + element() +
                  " *p = " + Batch->getNameAsString() +
                  ".data()), or take the batch as 'const std::vector<" +
                  element() + "> &'"});
  else
    Out.push_back({Loc, "this may modify an element of the consumer's copy "
                        "of the batch (a non-const reference to it, or a "
                        "non-const member function called on it): " +
                            byValue() +
                            "; copy the element into a local variable"});
}

void BatchUses::visit(const Stmt *S) {
  if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
    walk(LE->getBody()); // A capture of the batch copies the Span.
    return;
  }
  if (const auto *FR = dyn_cast<CXXForRangeStmt>(S)) {
    walk(FR->getInit());
    if (!namesVariable(FR->getRangeInit(), Batch))
      walk(FR->getRangeInit());
    else if (Spelling == BatchSpelling::VectorCopy &&
             FR->getLoopVariable()->getType()->isLValueReferenceType() &&
             !FR->getLoopVariable()
                  ->getType()
                  .getNonReferenceType()
                  .isConstQualified())
      modified(FR->getLoopVariable()->getLocation());
    walk(FR->getBody());
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        if (Spelling == BatchSpelling::VectorCopy &&
            VD->getType()->isLValueReferenceType() &&
            !VD->getType().getNonReferenceType().isConstQualified() &&
            Handles.isPlace(VD->getInit()))
          modified(VD->getLocation());
        walk(VD->getInit());
      }
    return;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E) {
    for (const Stmt *C : S->children())
      walk(C);
    return;
  }
  if (Spelling == BatchSpelling::VectorCopy)
    checkModification(E);
  if (std::optional<MemberCall> MC = memberCall(E);
      MC && namesVariable(MC->Object, Batch)) {
    if (!llvm::is_contained({"size", "empty", "data", "begin", "end"},
                            MC->Member))
      Out.push_back({MC->Call->getCallee()->getExprLoc(),
                     "'" + Batch->getNameAsString() + "." + MC->Member +
                         "' is not available on the batch: the rewritten "
                         "consumer receives it as an " +
                         span() +
                         ", which has size(), empty(), data(), [], "
                         "begin() and end()"});
    else if (MC->Member != "size" && MC->Member != "empty")
      checkContext(MC->Call->getCallee()->getExprLoc(), /*Handle=*/true);
    for (const Expr *A : MC->Call->arguments())
      walk(A);
    return;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript &&
      namesVariable(Op->getArg(0), Batch)) {
    checkContext(Op->getExprLoc(), /*Handle=*/false);
    walk(Op->getArg(1));
    return;
  }
  // In a template, with a dependent index. Either side may be the batch:
  // with an index of dependent type, getBase() cannot tell which is.
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
      AS && (namesVariable(AS->getLHS(), Batch) ||
             namesVariable(AS->getRHS(), Batch))) {
    checkContext(AS->getExprLoc(), /*Handle=*/false);
    walk(namesVariable(AS->getLHS(), Batch) ? AS->getRHS() : AS->getLHS());
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E);
      DRE && DRE->getDecl() == Batch) {
    Out.push_back({DRE->getLocation(),
                   "this use of the batch " + name() +
                       " is not supported: the rewritten consumer receives the "
                       "batch as an " +
                       span() +
                       " (size(), empty(), data(), [], begin(), end(), a "
                       "range-for), which is not a std::vector and cannot be "
                       "copied into or passed as one; use its elements"});
    return;
  }
  for (const Stmt *C : S->children())
    walk(C);
}

} // namespace

std::vector<ChannelProblem> batchUseProblems(const Stmt *Body,
                                             const ParmVarDecl *Batch,
                                             BatchSpelling Spelling) {
  std::vector<ChannelProblem> Out;
  // A Span stays a Span: any use the reference accepts is fine.
  if (Spelling != BatchSpelling::VectorCopy &&
      Spelling != BatchSpelling::VectorView)
    return Out;
  BatchUses(Batch, Spelling, Out).walk(Body);
  return Out;
}

} // namespace rewrite
} // namespace hpp
