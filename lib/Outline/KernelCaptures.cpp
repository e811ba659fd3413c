//===- KernelCaptures.cpp - An outlined kernel's parameters ---------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The steps of KernelOutliner::outline that give a kernel the values its
/// body received from the launch: the BoundDistArray parameter
/// (addBound), and a parameter and a launch argument for each capture
/// (addCaptures): by value, a Barrier (bound to the work-group's storage),
/// a Channel (its writer), an atomic (by pointer).
///
//===----------------------------------------------------------------------===//

#include "Analysis/BarrierUses.h"
#include "Analysis/Captures.h"
#include "Analysis/UniformWaits.h"
#include "Dialect/Channels.h"
#include "Dialect/DeviceCode.h"
#include "Outline/KernelDraft.h"
#include "Outline/KernelOutliner.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace hpp {
namespace rewrite {

/// `hpp::BoundDistArray<U>` for the `hpp::DistArray<U>` argument of the
/// launch \p Site (a parallelFor or executeWith call); null without one.
static QualType boundDistArrayOf(const Expr *Site) {
  const auto *Call = dyn_cast<CallExpr>(Site);
  if (!Call)
    return QualType();
  for (const Expr *Arg : Call->arguments()) {
    QualType T = Arg->getType().getNonReferenceType();
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        T->getAsCXXRecordDecl());
    if (!Spec || Spec->getName() != "DistArray" || !isDialectAPI(Spec))
      continue;
    // BoundDistArray<U> is declared next to DistArray<U>.
    ASTContext &Ctx = Spec->getASTContext();
    const DeclContext *NS = Spec->getDeclContext();
    for (const NamedDecl *D :
         NS->lookup(DeclarationName(&Ctx.Idents.get("BoundDistArray"))))
      if (const auto *CT = dyn_cast<ClassTemplateDecl>(D))
        for (const ClassTemplateSpecializationDecl *S : CT->specializations())
          if (S->getTemplateArgs().size() == 1 &&
              Spec->getTemplateArgs().size() >= 1 &&
              S->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
              Ctx.hasSameType(S->getTemplateArgs()[0].getAsType(),
                              Spec->getTemplateArgs()[0].getAsType()))
            return Ctx.getRecordType(S);
  }
  return QualType();
}

bool KernelOutliner::addBound(KernelDraft &D, OutlineError &Err) const {
  const ParmVarDecl *Bound = D.Req.Bound;
  if (!Bound)
    return true;
  // The bound distributed array: the DistArray converts to it at the
  // launch, which gives the kernel its regions as dynamic shared memory
  // (hpp/dist_array.h).
  QualType BoundT = Bound->getType().getNonReferenceType();
  if (BoundT->getContainedDeducedType() ||
      BoundT->getAs<TemplateTypeParmType>())
    BoundT = boundDistArrayOf(D.Req.Site); // `auto a`.
  auto TN = BoundT.isNull()
                ? std::nullopt
                : typeName(BoundT, false, Bound->getLocation(), Err);
  if (!TN) {
    if (Err.Loc.isInvalid())
      Err = {Bound->getLocation(),
             "cannot outline: the type of the BoundDistArray parameter "
             "must be hpp::BoundDistArray<U> of the launch's DistArray<U>"};
    return false;
  }
  D.Params.push_back(*TN + " " +
                     (Bound->getName().empty() ? D.fresh("hpp_darray")
                                               : Bound->getNameAsString()));
  return true;
}

bool KernelOutliner::addCaptures(KernelDraft &D, OutlineError &Err) const {
  const LambdaExpr *LE = D.Req.Lambda;
  const bool Mutable = LE->isMutable();
  // Capture types that name class members: template parameters of the
  // kernel, set at the launch from the captured expression's type.
  auto AsTemplate = [&](const std::string &Expr) {
    return [&, Expr]() {
      std::string P =
          D.fresh("HppCapture" + std::to_string(D.ExtraParams.size()));
      D.ExtraParams.push_back("typename " + P);
      D.ExtraArgs.push_back("std::decay_t<decltype(" + Expr + ")>");
      return P;
    };
  };
  for (const Capture &C : collectCaptures(LE)) {
    CaptureKind Kind = C.Kind;
    if (Kind == CaptureKind::HostReference)
      return false; // Reported by hpp-host-reference-capture.
    if (Kind == CaptureKind::This || Kind == CaptureKind::Unsupported) {
      Err = {C.Loc,
             Kind == CaptureKind::This
                 ? "cannot outline: the lambda captures 'this'; copy the "
                   "members it uses into local variables and capture those"
                 : "cannot outline: arrays, structured bindings and "
                   "variable-length arrays cannot be captured; use a Pointer"};
      return false;
    }
    const auto *VD = cast<VarDecl>(C.Var);
    std::string VarName = VD->getNameAsString();
    QualType T = VD->getType().getNonReferenceType();
    std::string Arg = VarName;
    std::string Param;
    if (Kind == CaptureKind::BarrierRef) {
      // The handle, bound to the work-group's storage before any work-item
      // can leave (hpp/barrier.h). The first barrier the body only waits
      // on: the kernel is outlined in three instantiations, binding it as
      // the Barrier, as a hardware barrier of the work-group or as the
      // grid barrier (hpp/wait_only_barrier.h, WaitOnlyBarrier), chosen at
      // launch. Not when a work-item may leave, or skip a wait, that the
      // others make: a hardware barrier would not see the deadlock
      // (Analysis/UniformWaits.h).
      const std::string Storage = D.fresh("hpp_barrier_" + VarName);
      D.HasBarrier = true;
      D.Binding +=
          "  __shared__ hpp::detail::BlockBarrierStorage " + Storage + ";\n";
      if (D.WaitOnly.empty() && onlyWaitedOn(VD, LE->getBody()) &&
          waitsAreUniform(VD, LE)) {
        D.WaitOnly = VarName;
        const std::string Handle = D.fresh("hpp_handle_" + VarName);
        Param = "hpp::Barrier " + Handle;
        D.Binding += "  hpp::detail::WaitOnlyBarrier<HppBarrierScope> " +
                     VarName + "(" + Handle + ", " + Storage + ");\n";
      } else {
        Param = "hpp::Barrier " + VarName;
        D.Binding += "  " + VarName + ".attach(" + Storage + ");\n";
      }
    } else if (Kind == CaptureKind::ChannelRef) {
      // The launch's writer (hpp/channel.h), with the most values one
      // work-item writes: the runtime reserves the storage from it (a
      // parallelFor's or a Task's launch alike). A bound that cannot be
      // computed hpp-channel reports.
      QualType Element = channelElementType(T);
      std::optional<unsigned> Bound;
      if (!Element.isNull())
        Bound = writeBound(LE->getBody(), VD, nullptr);
      if (!Bound)
        return false;
      auto TN = typeName(Element, false, C.Loc, Err);
      if (!TN)
        return false;
      if (VD->isInitCapture())
        Arg = D.EditedText(VD->getInit()->getSourceRange());
      Param = "hpp::detail::ChannelWriter<" + *TN + "> " + VarName;
      Arg = "hpp::detail::channelWriter(" + Arg + ", " +
            std::to_string(*Bound) + ")";
    } else if (Kind == CaptureKind::AtomicRef) {
      auto TN = typeName(T, false, C.Loc, Err, AsTemplate(VarName));
      if (!TN)
        return false;
      const std::string Ref = D.fresh("hpp_ref_" + VarName);
      Param = *TN + " *const " + Ref;
      D.Prologue += "  " + *TN + " &" + VarName + " = *" + Ref + ";\n";
      Arg = "&" + VarName;
    } else {
      if (VD->isInitCapture())
        Arg = D.EditedText(VD->getInit()->getSourceRange());
      auto TN = typeName(T, !Mutable, C.Loc, Err, AsTemplate(Arg));
      if (!TN)
        return false;
      Param = *TN + " " + VarName;
      if (const auto *PE = T->getAs<PackExpansionType>()) {
        // Not `const Ts...`: g++ (nvcc's host compiler too) then fails to
        // take `kernel<Ts...>`'s address. The body, written for a const
        // copy, does not assign to it.
        auto Pattern = typeName(PE->getPattern(), false, C.Loc, Err);
        if (!Pattern)
          return false;
        Param = *Pattern + "... " + VarName;
        Arg += "...";
      }
    }
    D.Params.push_back(Param);
    D.Args += ", " + Arg;
  }
  return true;
}

} // namespace rewrite
} // namespace hpp
