//===- KernelOutliner.cpp - Device lambda -> __global__ kernel ------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// KernelOutliner::outline and the function of each kind of request; the
/// steps they share but the captures (KernelCaptures.cpp) and the
/// constants (KernelConstants.cpp).
///
//===----------------------------------------------------------------------===//

#include "Outline/KernelOutliner.h"
#include "Analysis/GridSyncUses.h"
#include "Framework/DynamicASTVisitor.h"
#include "Framework/LineDirectives.h"
#include "Framework/RewriteScope.h"
#include "Outline/KernelDraft.h"
#include "Outline/KernelScope.h"
#include "Outline/KernelText.h"
#include "Outline/MacroRestate.h"

#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// The names a lambda declares or refers to: the kernel's own names must
/// not hide or clash with them.
class NamesInLambda : public DynamicASTVisitor {
public:
  explicit NamesInLambda(llvm::StringSet<> &Names) : Names(Names) {}
  bool VisitNamedDecl(NamedDecl *D) override {
    if (const IdentifierInfo *II = D->getIdentifier())
      Names.insert(II->getName());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (const IdentifierInfo *II = E->getDecl()->getIdentifier())
      Names.insert(II->getName());
    return true;
  }

private:
  llvm::StringSet<> &Names;
};
} // namespace

KernelDraft::KernelDraft(
    const OutlineRequest &Req, llvm::StringRef Name,
    const tooling::Replacements &BodyEdits,
    llvm::function_ref<std::string(SourceRange)> EditedText)
    : Req(Req), Name(Name.str()), BodyEdits(BodyEdits), EditedText(EditedText) {
  NamesInLambda(Used).TraverseStmt(const_cast<LambdaExpr *>(Req.Lambda));
  Shape = std::to_string(Req.Dims);
  if (Req.LocalDims)
    Shape += ", " + std::to_string(Req.LocalDims);
  RangeName = fresh("hpp_range");
  Params.push_back("hpp::Range<" + Shape + "> " + RangeName);
}

const FunctionDecl *KernelOutliner::enclosingFunction(const LambdaExpr *LE) {
  const DeclContext *DC = LE->getLambdaClass()->getDeclContext();
  for (; DC; DC = DC->getParent()) {
    const auto *FD = dyn_cast<FunctionDecl>(DC);
    if (FD && !(isa<CXXMethodDecl>(FD) &&
                cast<CXXMethodDecl>(FD)->getParent()->isLambda()))
      return FD;
  }
  return nullptr;
}

std::optional<std::string>
KernelOutliner::typeName(QualType T, bool AddConst, SourceLocation Loc,
                         OutlineError &Err,
                         llvm::function_ref<std::string()> AsTemplate) const {
  return kernelTypeName(Ctx, T, AddConst, Loc, Err, AsTemplate);
}

std::optional<OutlinedKernel>
KernelOutliner::outline(const OutlineRequest &Req, llvm::StringRef Name,
                        const tooling::Replacements &BodyEdits,
                        llvm::function_ref<std::string(SourceRange)> EditedText,
                        OutlineError &Err) const {
  KernelDraft D(Req, Name, BodyEdits, EditedText);
  switch (Req.Kind) {
  case KernelKind::ParallelFor:
    return outlineParallelFor(D, Err);
  case KernelKind::Task:
    return outlineTask(D, Err);
  case KernelKind::Consumer:
    return outlineConsumer(D, Err);
  }
  llvm_unreachable("unknown kernel kind");
}

std::optional<OutlinedKernel>
KernelOutliner::outlineParallelFor(KernelDraft &D, OutlineError &Err) const {
  if (!addBound(D, Err) || !addCaptures(D, Err) || !leaveScope(D, Err))
    return std::nullopt;
  declareIndex(D, Err);
  return finish(D, Err);
}

std::optional<OutlinedKernel>
KernelOutliner::outlineTask(KernelDraft &D, OutlineError &Err) const {
  const OutlineRequest &Req = D.Req;
  // Where the work-item's value goes (hpp/task.h, TaskResult<R>).
  std::optional<std::string> ResultType =
      typeName(Req.Result, false, Req.Site->getBeginLoc(), Err);
  if (!ResultType)
    return std::nullopt;
  const std::string Result = D.fresh("hpp_result");
  D.Params.push_back("hpp::detail::TaskResult<" + *ResultType + "> " + Result);
  if (!addCaptures(D, Err) || !leaveScope(D, Err))
    return std::nullopt;
  declareIndex(D, Err);
  // A task whose dependency failed: every work-item of the launch returns,
  // before any barrier.
  D.Guard = "  if (!" + Result + ".runs())\n    return;\n";
  // The index is declared with the body's type whatever the range's local
  // dimensions are: from the work-item's fields.
  D.IndexInit = "(hpp::detail::kernelIndex(" + D.RangeName + ").fields())";
  // A value-returning body gives its value to a lambda that stores it.
  if (!Req.Result->isVoidType()) {
    D.BodyOpen =
        Result + ".store(" + D.IndexName + ", [&]() -> " + *ResultType + " ";
    D.BodyClose = "());";
  }
  return finish(D, Err);
}

std::optional<OutlinedKernel>
KernelOutliner::outlineConsumer(KernelDraft &D, OutlineError &Err) const {
  const OutlineRequest &Req = D.Req;
  // The batch this launch consumes (hpp/channel.h, ChannelBatch<T>).
  std::optional<std::string> BatchType =
      typeName(Req.BatchElement, false, Req.Site->getBeginLoc(), Err);
  if (!BatchType)
    return std::nullopt;
  const std::string Batch = D.fresh("hpp_batch");
  D.Params.push_back("hpp::detail::ChannelBatch<" + *BatchType + "> " + Batch);
  if (!addBound(D, Err) || !addCaptures(D, Err) || !leaveScope(D, Err))
    return std::nullopt;
  declareIndex(D, Err);
  // An incomplete batch: every work-item of the launch returns, before any
  // barrier.
  D.Guard = "  if (!" + Batch + ".ready())\n    return;\n";
  // The lambda's data parameter, bound to the batch's elements.
  if (Req.Batch)
    D.AfterPrologue = "  hpp::Span<" + *BatchType + "> " +
                      Req.Batch->getName().str() + " = " + Batch + ".span();\n";
  return finish(D, Err);
}

bool KernelOutliner::leaveScope(KernelDraft &D, OutlineError &Err) const {
  const LambdaExpr *LE = D.Req.Lambda;
  // Constants the body reads without capturing them, and constant static
  // members it names unqualified (Analysis/ConstantOrigin.h).
  D.Templates.emplace(enclosingFunction(LE), LE);
  if (!D.Templates->ok(Err))
    return false;
  D.InsertAt = D.Templates->insertionPoint(Ctx, Err);
  if (D.InsertAt.isInvalid())
    return false;
  if (!declareConstants(LE, D.InsertAt, D.Params, D.Args, D.Prologue, D.Copied,
                        Err))
    return false;
  if (!qualifyScopedNames(Ctx, LE, D.BodyEdits, Err))
    return false;
  D.Prologue = localScopeText(Ctx, LE) + D.Prologue;
  return true;
}

void KernelOutliner::declareIndex(KernelDraft &D, OutlineError &Err) const {
  const ParmVarDecl *IndexParam =
      D.Req.Lambda->getCallOperator()->getParamDecl(0);
  // The index as the body declares it (an Index<1> body of a Range<1,1>
  // launch, as the paper writes it, stays an Index<1>); the range's shape
  // for a generic one.
  D.IndexType = "hpp::Index<" + D.Shape + ">";
  QualType IndexT = IndexParam->getType().getNonReferenceType();
  if (IndexT->isDependentType() || IndexT->getContainedDeducedType())
    IndexT = D.Req.Index;
  if (!IndexT.isNull() && !IndexT->isDependentType() &&
      !IndexT->getContainedDeducedType())
    if (auto TN = typeName(IndexT.getUnqualifiedType(), false,
                           IndexParam->getLocation(), Err))
      D.IndexType = *TN;
  D.IndexName = IndexParam->getName().empty() ? D.fresh("hpp_index")
                                              : IndexParam->getNameAsString();
  D.IndexInit = " = hpp::detail::kernelIndex(" + D.RangeName + ")";
}

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

std::optional<OutlinedKernel> KernelOutliner::finish(const KernelDraft &D,
                                                     OutlineError &Err) const {
  const SourceManager &SM = Ctx.getSourceManager();
  const OutlineRequest &Req = D.Req;
  const LambdaExpr *LE = Req.Lambda;
  const TemplateContext &Templates = *D.Templates;
  PresumedLoc PL =
      SM.getPresumedLoc(SM.getExpansionLoc(Req.Site->getBeginLoc()));

  OutlinedKernel K;
  std::string Origin = llvm::sys::path::filename(PL.getFilename()).str() + ":" +
                       std::to_string(PL.getLine()) + ":" +
                       std::to_string(PL.getColumn());
  std::string Header = Templates.header(
      D.WaitOnly.empty() ? "" : "int HppBarrierScope", D.ExtraParams);
  // A kernel outlined into a project header is defined in every source
  // that includes it: a template is, as the language allows; any other
  // kernel is `static`, each source's own.
  const bool InHeader =
      isWrittenInProjectHeader(SM, SM.getExpansionLoc(Req.Site->getBeginLoc()));
  std::string Head = std::string(InHeader && Header.empty() ? "static " : "") +
                     "__global__ void " + D.Name + "(";
  const CXXRecordDecl *Class = enclosingClass(enclosingFunction(LE), LE);
  if (Class)
    K.Declaration = "/// Outlined by hpp-rewrite from the " + Req.what().str() +
                    " at " + Origin + "; defined after '" +
                    Class->getNameAsString() + "'.\n" + Header +
                    wrapSignature(Head, D.Params, ");") + "\n\n";
  llvm::raw_string_ostream OS(K.Definition);
  OS << "/// Outlined by hpp-rewrite from the " << Req.what() << " at "
     << Origin << ".\n"
     << Header << wrapSignature(Head, D.Params, ") {") << "\n"
     << D.Guard << D.Binding;
  // A work-item that leaves the kernel, by any path, from here on is
  // counted as exited: the barriers' waits tell a deadlock from it
  // (hpp/block_barrier.h).
  if (D.HasBarrier)
    OS << "  hpp::detail::BarrierExitGuard " << D.fresh("hpp_barrier_exit")
       << ";\n";
  OS << "  " << D.IndexType << " " << D.IndexName << D.IndexInit << ";\n"
     << "  if (!" << D.IndexName << ".inGlobalRange())\n"
     << "    return;\n"
     << D.Prologue << D.AfterPrologue;
  // The body keeps the lambda's lines (and file name): the runtime's
  // errors, __builtin_LINE() and the GPU compilers' diagnostics name them.
  SourceLocation LBrace = LE->getCompoundStmtBody()->getLBracLoc();
  if (Lines && LBrace.isFileID() && SM.isWrittenInMainFile(LBrace))
    OS << Lines->directiveAt(SM.getFileOffset(LBrace));
  else if (LBrace.isFileID() && isWrittenInProjectHeader(SM, LBrace))
    OS << headerLineDirective(SM, LBrace);
  OS << "  " << D.BodyOpen << bodyText(Ctx, Lines, LE, D.BodyEdits)
     << D.BodyClose << "\n}\n\n";
  std::string Kernel = D.Name + Templates.arguments("", D.ExtraArgs);
  if (!D.WaitOnly.empty())
    Kernel = "hpp::detail::waitOnlyVariants(" + D.Name +
             Templates.arguments("0", D.ExtraArgs) + ", " + D.Name +
             Templates.arguments("1", D.ExtraArgs) + ", " + D.Name +
             Templates.arguments("2", D.ExtraArgs) + ", " + D.WaitOnly + ")";
  // A kernel that reaches __gpu_sync needs every work-group resident.
  if (reachesGridSync(LE->getBody()))
    Kernel = "hpp::detail::cooperative(" + Kernel + ")";
  K.KernelExpr = Kernel;
  K.Arguments = D.Args;
  K.InsertAt = D.InsertAt;
  if (inExternCBlock(LE)) {
    OS.flush();
    for (std::string *Text : {&K.Definition, &K.Declaration})
      if (!Text->empty())
        *Text = "extern \"C++\" {\n" + llvm::StringRef(*Text).rtrim().str() +
                "\n}\n\n";
  }
  // A #define or #undef in the body would move into the kernel, away from
  // the code after the body that expects it.
  const CharSourceRange Body =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(
                                   LE->getCompoundStmtBody()->getSourceRange()),
                               SM, Ctx.getLangOpts());
  std::string Macro;
  if (SourceLocation Directive =
          macroDirectiveIn(Body, SM, Ctx.getLangOpts(), Macro);
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
  for (const Decl *Local : localScopeDecls(Ctx, LE))
    if (!isa<TypedefNameDecl>(Local)) // Spelled from its type, not its text.
      K.Copied.push_back(Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(Local->getSourceRange()), SM,
          Ctx.getLangOpts()));
  K.Copied.insert(K.Copied.end(), D.Copied.begin(), D.Copied.end());
  K.Copied.push_back(Body);
  llvm::erase_if(K.Copied, [&](const CharSourceRange &R) {
    return R.isInvalid() || !isWrittenInRewrittenFile(SM, R.getBegin());
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
