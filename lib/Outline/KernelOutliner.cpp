//===- KernelOutliner.cpp - Device lambda -> __global__ kernel ------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Outline/KernelOutliner.h"
#include "Analysis/BarrierUses.h"
#include "Analysis/Captures.h"
#include "Analysis/GridSyncUses.h"
#include "Analysis/UniformWaits.h"
#include "Dialect/Channels.h"
#include "Dialect/DeviceCode.h"
#include "Framework/LineDirectives.h"
#include "Outline/KernelScope.h"
#include "Outline/MacroRestate.h"
#include "Outline/TemplateContext.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// The names a lambda declares or refers to: the kernel's own names must
/// not hide or clash with them.
class NamesInLambda : public RecursiveASTVisitor<NamesInLambda> {
public:
  llvm::StringSet<> Names;
  bool VisitNamedDecl(NamedDecl *D) {
    if (const IdentifierInfo *II = D->getIdentifier())
      Names.insert(II->getName());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const IdentifierInfo *II = E->getDecl()->getIdentifier())
      Names.insert(II->getName());
    return true;
  }
};
} // namespace

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

/// \p Base, or \p Base with `_` appended until no name of \p Taken is it.
/// Whether the innermost linkage block around \p LE, in the text, is
/// `extern "C"`: the kernel placed in it must keep C++ linkage (a template
/// cannot have C linkage).
static bool inExternCBlock(const LambdaExpr *LE) {
  for (const DeclContext *DC = LE->getLambdaClass()->getLexicalParent(); DC;
       DC = DC->getLexicalParent())
    if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC))
      return LS->getLanguage() == LinkageSpecLanguageIDs::C;
  return false;
}

static std::string freshName(std::string Base, const llvm::StringSet<> &Taken) {
  while (Taken.contains(Base))
    Base += "_";
  return Base;
}

std::optional<OutlinedKernel>
KernelOutliner::outline(const OutlineRequest &Req, llvm::StringRef Name,
                        const tooling::Replacements &BodyEdits,
                        llvm::function_ref<std::string(SourceRange)> EditedText,
                        OutlineError &Err) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LambdaExpr *LE = Req.Lambda;
  const CXXMethodDecl *Op = LE->getCallOperator();
  const bool IsTask = Req.Kind == KernelKind::Task;
  const bool IsConsumer = Req.Kind == KernelKind::Consumer;
  std::string Shape = std::to_string(Req.Dims);
  if (Req.LocalDims)
    Shape += ", " + std::to_string(Req.LocalDims);

  // Generated names avoid every name the lambda uses (`int hpp_range`).
  NamesInLambda Used;
  Used.TraverseStmt(const_cast<LambdaExpr *>(LE));
  auto Fresh = [&](const std::string &Base) {
    return freshName(Base, Used.Names);
  };
  const std::string RangeName = Fresh("hpp_range");
  std::vector<std::string> Params{"hpp::Range<" + Shape + "> " + RangeName};
  std::string Args, Prologue, Binding;
  std::string ResultName, ResultType, BatchName, BatchType;
  if (IsTask) {
    // Where the work-item's value goes (hpp/task.h, TaskResult<R>).
    auto TN = typeName(Req.Result, false, Req.Site->getBeginLoc(), Err);
    if (!TN)
      return std::nullopt;
    ResultType = *TN;
    ResultName = Fresh("hpp_result");
    Params.push_back("hpp::detail::TaskResult<" + ResultType + "> " +
                     ResultName);
  }
  if (IsConsumer) {
    // The batch this launch consumes (hpp/channel.h, ChannelBatch<T>).
    auto TN = typeName(Req.BatchElement, false, Req.Site->getBeginLoc(), Err);
    if (!TN)
      return std::nullopt;
    BatchType = *TN;
    BatchName = Fresh("hpp_batch");
    Params.push_back("hpp::detail::ChannelBatch<" + BatchType + "> " +
                     BatchName);
  }
  if (const ParmVarDecl *Bound = Req.Bound) {
    // The bound distributed array: the DistArray converts to it at the
    // launch, which gives the kernel its regions as dynamic shared memory
    // (hpp/dist_array.h).
    QualType BoundT = Bound->getType().getNonReferenceType();
    if (BoundT->getContainedDeducedType() ||
        BoundT->getAs<TemplateTypeParmType>())
      BoundT = boundDistArrayOf(Req.Site); // `auto a`.
    auto TN = BoundT.isNull()
                  ? std::nullopt
                  : typeName(BoundT, false, Bound->getLocation(), Err);
    if (!TN) {
      if (Err.Loc.isInvalid())
        Err = {Bound->getLocation(),
               "cannot outline: the type of the BoundDistArray parameter "
               "must be hpp::BoundDistArray<U> of the launch's DistArray<U>"};
      return std::nullopt;
    }
    Params.push_back(*TN + " " +
                     (Bound->getName().empty() ? Fresh("hpp_darray")
                                               : Bound->getNameAsString()));
  }
  // The first barrier the body only waits on: the kernel is outlined in
  // three instantiations, binding it as the Barrier, as a hardware barrier
  // of the work-group or as the grid barrier (hpp/wait_only_barrier.h,
  // WaitOnlyBarrier), chosen at launch. Not when a work-item may leave, or
  // skip a wait, that the others make: a hardware barrier would not see the
  // deadlock (Analysis/UniformWaits.h).
  std::string WaitOnly;
  bool HasBarrier = false;
  bool Mutable = LE->isMutable();
  // Capture types that name class members: template parameters of the
  // kernel, set at the launch from the captured expression's type.
  std::vector<std::string> ExtraParams, ExtraArgs;
  auto AsTemplate = [&](const std::string &Expr) {
    return [&, Expr]() {
      std::string P = Fresh("HppCapture" + std::to_string(ExtraParams.size()));
      ExtraParams.push_back("typename " + P);
      ExtraArgs.push_back("std::decay_t<decltype(" + Expr + ")>");
      return P;
    };
  };
  for (const Capture &C : collectCaptures(LE)) {
    CaptureKind Kind = C.Kind;
    if (Kind == CaptureKind::HostReference)
      return std::nullopt; // Reported by hpp-host-reference-capture.
    if (Kind == CaptureKind::This || Kind == CaptureKind::Unsupported) {
      Err = {C.Loc,
             Kind == CaptureKind::This
                 ? "cannot outline: the lambda captures 'this'; copy the "
                   "members it uses into local variables and capture those"
                 : "cannot outline: arrays, structured bindings and "
                   "variable-length arrays cannot be captured; use a Pointer"};
      return std::nullopt;
    }
    const auto *VD = cast<VarDecl>(C.Var);
    std::string VarName = VD->getNameAsString();
    QualType T = VD->getType().getNonReferenceType();
    std::string Arg = VarName;
    std::string Param;
    if (Kind == CaptureKind::BarrierRef) {
      // The handle, bound to the work-group's storage before any work-item
      // can leave (hpp/barrier.h).
      const std::string Storage = Fresh("hpp_barrier_" + VarName);
      HasBarrier = true;
      Binding +=
          "  __shared__ hpp::detail::BlockBarrierStorage " + Storage + ";\n";
      if (WaitOnly.empty() && onlyWaitedOn(VD, LE->getBody()) &&
          waitsAreUniform(VD, LE)) {
        WaitOnly = VarName;
        const std::string Handle = Fresh("hpp_handle_" + VarName);
        Param = "hpp::Barrier " + Handle;
        Binding += "  hpp::detail::WaitOnlyBarrier<HppBarrierScope> " +
                   VarName + "(" + Handle + ", " + Storage + ");\n";
      } else {
        Param = "hpp::Barrier " + VarName;
        Binding += "  " + VarName + ".attach(" + Storage + ");\n";
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
        return std::nullopt;
      auto TN = typeName(Element, false, C.Loc, Err);
      if (!TN)
        return std::nullopt;
      if (VD->isInitCapture())
        Arg = EditedText(VD->getInit()->getSourceRange());
      Param = "hpp::detail::ChannelWriter<" + *TN + "> " + VarName;
      Arg = "hpp::detail::channelWriter(" + Arg + ", " +
            std::to_string(*Bound) + ")";
    } else if (Kind == CaptureKind::AtomicRef) {
      auto TN = typeName(T, false, C.Loc, Err, AsTemplate(VarName));
      if (!TN)
        return std::nullopt;
      const std::string Ref = Fresh("hpp_ref_" + VarName);
      Param = *TN + " *const " + Ref;
      Prologue += "  " + *TN + " &" + VarName + " = *" + Ref + ";\n";
      Arg = "&" + VarName;
    } else {
      if (VD->isInitCapture())
        Arg = EditedText(VD->getInit()->getSourceRange());
      auto TN = typeName(T, !Mutable, C.Loc, Err, AsTemplate(Arg));
      if (!TN)
        return std::nullopt;
      Param = *TN + " " + VarName;
      if (const auto *PE = T->getAs<PackExpansionType>()) {
        // Not `const Ts...`: g++ (nvcc's host compiler too) then fails to
        // take `kernel<Ts...>`'s address. The body, written for a const
        // copy, does not assign to it.
        auto Pattern = typeName(PE->getPattern(), false, C.Loc, Err);
        if (!Pattern)
          return std::nullopt;
        Param = *Pattern + "... " + VarName;
        Arg += "...";
      }
    }
    Params.push_back(Param);
    Args += ", " + Arg;
  }

  // Constants the body reads without capturing them, and constant static
  // members it names unqualified (Analysis/ConstantOrigin.h).
  TemplateContext Templates(enclosingFunction(LE), LE);
  if (!Templates.ok(Err))
    return std::nullopt;
  SourceLocation InsertAt = Templates.insertionPoint(Ctx, Err);
  if (InsertAt.isInvalid())
    return std::nullopt;
  std::vector<CharSourceRange> Copied;
  if (!declareConstants(LE, InsertAt, Params, Args, Prologue, Copied, Err))
    return std::nullopt;
  tooling::Replacements Edits = BodyEdits;
  if (!qualifyScopedNames(Ctx, LE, Edits, Err))
    return std::nullopt;
  Prologue = localScopeText(Ctx, LE) + Prologue;

  const ParmVarDecl *IndexParam = Op->getParamDecl(0);
  // The index as the body declares it (an Index<1> body of a Range<1,1>
  // launch, as the paper writes it, stays an Index<1>); the range's shape
  // for a generic one.
  std::string IndexType = "hpp::Index<" + Shape + ">";
  QualType IndexT = IndexParam->getType().getNonReferenceType();
  if (IndexT->isDependentType() || IndexT->getContainedDeducedType())
    IndexT = Req.Index;
  if (!IndexT.isNull() && !IndexT->isDependentType() &&
      !IndexT->getContainedDeducedType())
    if (auto TN = typeName(IndexT.getUnqualifiedType(), false,
                           IndexParam->getLocation(), Err))
      IndexType = *TN;
  std::string IndexName = IndexParam->getName().empty()
                              ? Fresh("hpp_index")
                              : IndexParam->getNameAsString();
  PresumedLoc PL =
      SM.getPresumedLoc(SM.getExpansionLoc(Req.Site->getBeginLoc()));

  OutlinedKernel K;
  std::string Origin = llvm::sys::path::filename(PL.getFilename()).str() + ":" +
                       std::to_string(PL.getLine()) + ":" +
                       std::to_string(PL.getColumn());
  std::string Header = Templates.header(
      WaitOnly.empty() ? "" : "int HppBarrierScope", ExtraParams);
  std::string Head = "__global__ void " + Name.str() + "(";
  const CXXRecordDecl *Class = enclosingClass(enclosingFunction(LE), LE);
  if (Class)
    K.Declaration = "/// Outlined by hpp-rewrite from the " + Req.what().str() +
                    " at " + Origin + "; defined after '" +
                    Class->getNameAsString() + "'.\n" + Header +
                    wrapSignature(Head, Params, ");") + "\n\n";
  llvm::raw_string_ostream OS(K.Definition);
  OS << "/// Outlined by hpp-rewrite from the " << Req.what() << " at "
     << Origin << ".\n"
     << Header << wrapSignature(Head, Params, ") {") << "\n";
  // A task whose dependency failed, or an incomplete batch: every
  // work-item of the launch returns, before any barrier.
  if (IsTask)
    OS << "  if (!" << ResultName << ".runs())\n"
       << "    return;\n";
  if (IsConsumer)
    OS << "  if (!" << BatchName << ".ready())\n"
       << "    return;\n";
  // A work-item that leaves the kernel, by any path, from here on is
  // counted as exited: the barriers' waits tell a deadlock from it
  // (hpp/block_barrier.h).
  if (HasBarrier)
    Binding +=
        "  hpp::detail::BarrierExitGuard " + Fresh("hpp_barrier_exit") + ";\n";
  OS << Binding << "  " << IndexType << " " << IndexName;
  // A Task's index is declared with the body's type whatever the range's
  // local dimensions are: from the work-item's fields.
  if (IsTask)
    OS << "(hpp::detail::kernelIndex(" << RangeName << ").fields());\n";
  else
    OS << " = hpp::detail::kernelIndex(" << RangeName << ");\n";
  OS << "  if (!" << IndexName << ".inGlobalRange())\n"
     << "    return;\n"
     << Prologue;
  if (IsConsumer && Req.Batch)
    OS << "  hpp::Span<" << BatchType << "> " << Req.Batch->getName() << " = "
       << BatchName << ".span();\n";
  // The body keeps the lambda's lines (and file name): the runtime's
  // errors, __builtin_LINE() and the GPU compilers' diagnostics name them.
  SourceLocation LBrace = LE->getCompoundStmtBody()->getLBracLoc();
  if (Lines && LBrace.isFileID() && SM.isWrittenInMainFile(LBrace))
    OS << Lines->directiveAt(SM.getFileOffset(LBrace));
  OS << "  ";
  if (IsTask && !Req.Result->isVoidType())
    OS << ResultName << ".store(" << IndexName << ", [&]() -> " << ResultType
       << " " << bodyText(LE, Edits) << "());\n}\n\n";
  else
    OS << bodyText(LE, Edits) << "\n}\n\n";
  std::string Kernel = Name.str() + Templates.arguments("", ExtraArgs);
  if (!WaitOnly.empty())
    Kernel = "hpp::detail::waitOnlyVariants(" + Name.str() +
             Templates.arguments("0", ExtraArgs) + ", " + Name.str() +
             Templates.arguments("1", ExtraArgs) + ", " + Name.str() +
             Templates.arguments("2", ExtraArgs) + ", " + WaitOnly + ")";
  // A kernel that reaches __gpu_sync needs every work-group resident.
  if (reachesGridSync(LE->getBody()))
    Kernel = "hpp::detail::cooperative(" + Kernel + ")";
  K.KernelExpr = Kernel;
  K.Arguments = Args;
  K.InsertAt = InsertAt;
  if (inExternCBlock(LE)) {
    OS.flush();
    for (std::string *Text : {&K.Definition, &K.Declaration})
      if (!Text->empty())
        *Text = "extern \"C++\" {\n" + llvm::StringRef(*Text).rtrim().str() +
                "\n}\n\n";
  }
  // A #define or #undef in the body would move into the kernel, away from
  // the code after the body that expects it.
  std::string Macro;
  if (SourceLocation Directive =
          macroDirectiveIn(Lexer::makeFileCharRange(
                               CharSourceRange::getTokenRange(
                                   LE->getCompoundStmtBody()->getSourceRange()),
                               SM, Ctx.getLangOpts()),
                           SM, Ctx.getLangOpts(), Macro);
      Directive.isValid()) {
    Err = {Directive,
           "cannot outline the " + Req.what().str() + " at " + Origin +
               ": its body defines or removes the macro '" + Macro +
               "', and the body becomes a kernel away from the code that "
               "follows it; write the directive before the " +
               Req.what().str()};
    return std::nullopt;
  }
  // What the kernel repeats, in its order: the declarations of the local
  // scope, the constants' initialisers, the body.
  for (const Decl *D : localScopeDecls(Ctx, LE))
    if (!isa<TypedefNameDecl>(D)) // Spelled from its type, not its text.
      K.Copied.push_back(Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(D->getSourceRange()), SM,
          Ctx.getLangOpts()));
  K.Copied.insert(K.Copied.end(), Copied.begin(), Copied.end());
  K.Copied.push_back(
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(
                                   LE->getCompoundStmtBody()->getSourceRange()),
                               SM, Ctx.getLangOpts()));
  llvm::erase_if(K.Copied, [&](const CharSourceRange &R) {
    return R.isInvalid() || !SM.isWrittenInMainFile(R.getBegin());
  });
  if (Class) {
    // After the `;` that ends the class definition.
    SourceLocation RBrace = Class->getBraceRange().getEnd();
    if (const ClassTemplateDecl *CT = Class->getDescribedClassTemplate())
      RBrace = CT->getTemplatedDecl()->getBraceRange().getEnd();
    if (!RBrace.isMacroID())
      K.DefineAt = Lexer::findLocationAfterToken(
          RBrace, tok::semi, SM, Ctx.getLangOpts(),
          /*SkipTrailingWhitespaceAndNewLine=*/false);
    if (K.DefineAt.isInvalid()) {
      Err = {Class->getLocation(),
             "cannot outline the " + Req.what().str() + " at " + Origin +
                 ": its kernel goes after this class, which must end with "
                 "'};' outside any macro"};
      return std::nullopt;
    }
  }
  return K;
}

} // namespace rewrite
} // namespace hpp
