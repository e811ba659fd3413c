//===- OutlineRequest.cpp - What a kernel is outlined from ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The shape of the kernel outlined from a parallelFor call and from a
/// Channel consumer (from the range argument) and from a Task construction
/// (from the Task's index type).
///
//===----------------------------------------------------------------------===//

#include "Outline/OutlineRequest.h"
#include "Dialect/Channels.h"
#include "Dialect/Devices.h"
#include "Dialect/Tasks.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace hpp {
namespace rewrite {

std::optional<OutlineRequest>
OutlineRequest::forParallelFor(const CallExpr *Call, const LambdaExpr *LE,
                               OutlineError &Err) {
  const CXXMethodDecl *Op = LE->getCallOperator();
  // parallelFor([device,] range, lambda(Index)), or parallelFor([device,]
  // range, darray, lambda(Index, BoundDistArray<T>)).
  const unsigned First = launchDevice(Call) ? 1 : 0;
  if (!First && Call->getNumArgs() > Op->getNumParams() + 1 &&
      Call->getArg(0)->isTypeDependent()) {
    Err = {Call->getArg(0)->getBeginLoc(),
           "cannot outline: the type of parallelFor's first argument depends "
           "on a template parameter; a device argument must be an "
           "hpp::Device (write the parameter as hpp::Device)"};
    return std::nullopt;
  }
  const unsigned Args = Call->getNumArgs() - First;
  const bool Dist = Args == 3 && Op->getNumParams() == 2;
  if (!Dist && (Args != 2 || Op->getNumParams() != 1)) {
    Err = {Call->getBeginLoc(),
           "cannot outline: only parallelFor([device,] range, lambda) with "
           "one Index parameter and parallelFor([device,] range, darray, "
           "lambda) with an Index and a BoundDistArray parameter are "
           "supported"};
    return std::nullopt;
  }
  OutlineRequest Req;
  Req.Kind = KernelKind::ParallelFor;
  Req.Site = Call;
  Req.Lambda = LE;
  if (!Req.setRange(Call->getArg(First), Err))
    return std::nullopt;
  if (Dist)
    Req.Bound = Op->getParamDecl(1);
  return Req;
}

bool OutlineRequest::setRange(const Expr *Range, OutlineError &Err) {
  // Range<N> or Range<N, N>: the kernel's first parameter.
  QualType RangeT = Range->getType().getNonReferenceType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      RangeT->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() != 2 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral) {
    Err = {Range->getBeginLoc(),
           "cannot outline: the range's type must be a concrete "
           "hpp::Range<N> or hpp::Range<N, N>"};
    return false;
  }
  Dims = int(Spec->getTemplateArgs()[0].getAsIntegral().getExtValue());
  LocalDims = int(Spec->getTemplateArgs()[1].getAsIntegral().getExtValue());
  return true;
}

std::optional<OutlineRequest> OutlineRequest::forConsumer(const CallExpr *Call,
                                                          const LambdaExpr *LE,
                                                          OutlineError &Err) {
  const CXXMethodDecl *Op = LE->getCallOperator();
  // executeWith(pred, range, lambda(Index, batch)), or executeWith(pred,
  // range, darray, lambda(Index, batch, BoundDistArray<U>)) (or the
  // paper's lambda(Index, BoundDistArray<U>, batch): the kernel takes the
  // batch first all the same); hpp-channel has checked the shape.
  unsigned Written = 0;
  for (const Expr *A : Call->arguments())
    Written += !isa<CXXDefaultArgExpr>(A);
  const bool Dist = Written == 4;
  OutlineRequest Req;
  Req.Kind = KernelKind::Consumer;
  Req.Site = Call;
  Req.Lambda = LE;
  const Expr *Object = channelMemberObject(Call, "executeWith");
  QualType Channel = Object ? Object->getType() : QualType();
  if (!Channel.isNull() && Channel->isPointerType())
    Channel = Channel->getPointeeType();
  Req.BatchElement = channelElementType(Channel);
  if (Req.BatchElement.isNull() || Op->getNumParams() != (Dist ? 3u : 2u)) {
    Err = {Call->getBeginLoc(),
           "cannot outline: only executeWith(pred, range, lambda) with an "
           "Index and a batch parameter and executeWith(pred, range, "
           "darray, lambda) with an Index, a batch and a BoundDistArray "
           "parameter are supported, on a Channel of a concrete type"};
    return std::nullopt;
  }
  if (!Req.setRange(Call->getArg(1), Err))
    return std::nullopt;
  const ConsumerParams Params = consumerParams(Op);
  if (!Params.Batch->getName().empty())
    Req.Batch = Params.Batch;
  if (Dist)
    Req.Bound = Params.Bound;
  return Req;
}

std::optional<OutlineRequest> OutlineRequest::forTask(const Expr *Site,
                                                      QualType TaskType,
                                                      const LambdaExpr *LE,
                                                      const ASTContext &Ctx,
                                                      OutlineError &Err) {
  std::optional<TaskTypeArgs> Args = taskTypeArgs(TaskType);
  std::optional<std::pair<int, int>> Shape;
  if (Args)
    Shape = indexShape(Args->Index, Ctx);
  if (!Shape || Shape->first < 1 || Shape->first > 3) {
    Err = {Site->getBeginLoc(),
           "cannot outline: the Task's index type must be a concrete "
           "hpp::Index<N> or hpp::Index<N, N>"};
    return std::nullopt;
  }
  OutlineRequest Req;
  Req.Kind = KernelKind::Task;
  Req.Site = Site;
  Req.Lambda = LE;
  // Whatever range enqueue is given, the kernel takes a Range<N, N>: the
  // runtime converts it.
  Req.Dims = Req.LocalDims = Shape->first;
  Req.Result = Args->Result;
  Req.Index = Args->Index;
  return Req;
}

} // namespace rewrite
} // namespace hpp
