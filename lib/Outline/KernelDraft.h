//===- KernelDraft.h - A kernel while the outliner builds it ----*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// KernelOutliner::outline builds a kernel in steps: those every kind of
/// request shares (the captures, the scope the kernel leaves, the index,
/// the text) and those of the request's kind (a Task's result, a
/// consumer's batch, a bound DistArray). KernelDraft is what the steps
/// hand on: the parameters and launch arguments so far, the lines that
/// precede the body, and the names the kernel declares. Private to the
/// outliner (KernelOutliner.cpp, KernelCaptures.cpp).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_LIB_OUTLINE_KERNELDRAFT_H
#define HPP_REWRITE_LIB_OUTLINE_KERNELDRAFT_H

#include "Outline/OutlineRequest.h"
#include "Outline/TemplateContext.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// The kernel of one request, between the outliner's steps.
struct KernelDraft {
  /// The draft of \p Req's kernel, named \p Name: the names the lambda
  /// uses are collected, the range parameter declared.
  KernelDraft(const OutlineRequest &Req, llvm::StringRef Name,
              const clang::tooling::Replacements &BodyEdits,
              llvm::function_ref<std::string(clang::SourceRange)> EditedText);

  /// \p Base, with `_` appended until the lambda uses no such name: the
  /// kernel's own names never hide or clash with the body's
  /// (`int hpp_range`).
  std::string fresh(std::string Base) const {
    while (Used.contains(Base))
      Base += "_";
    return Base;
  }

  const OutlineRequest &Req;
  const std::string Name;
  /// The edits inside the body, relative to its `{`: the other rules',
  /// then the qualifiers of the class members it names.
  clang::tooling::Replacements BodyEdits;
  /// The text of a range (an init-capture's initialiser) with the other
  /// rules' edits applied.
  llvm::function_ref<std::string(clang::SourceRange)> EditedText;
  /// The names the lambda declares or refers to.
  llvm::StringSet<> Used;

  /// `Dims` or `Dims, LocalDims`: the range's and the index's shape.
  std::string Shape;
  std::string RangeName;
  /// The kernel's parameters, the range first.
  std::vector<std::string> Params;
  /// The launch's arguments after the range, each preceded by `, `.
  std::string Args;
  /// Template parameters for the capture types the kernel cannot spell
  /// (`typename HppCapture0`), and the launch's arguments for them.
  std::vector<std::string> ExtraParams, ExtraArgs;
  /// Lines before the index: the captured barriers' storage and handles.
  std::string Binding;
  /// Lines after the index check: the repeated local declarations, the
  /// references to captured atomics, the constants.
  std::string Prologue;
  /// The captured Barrier the body only waits on: the kernel is outlined
  /// in three variants (hpp/wait_only_barrier.h). Empty: none.
  std::string WaitOnly;
  bool HasBarrier = false;

  /// The enclosing function's template parameters, which the kernel
  /// repeats; where the kernel is inserted; the initialisers of constants
  /// the kernel repeats (main-file ranges). Set by the scope step.
  std::optional<TemplateContext> Templates;
  clang::SourceLocation InsertAt;
  std::vector<clang::CharSourceRange> Copied;

  /// The index as the body declares it, and its initialisation (after its
  /// name). Set by the index step.
  std::string IndexType, IndexName, IndexInit;

  /// The text of the request's kind: lines that leave before any barrier
  /// (a Task whose dependency failed, an incomplete batch), lines after the
  /// prologue (a consumer's Span), and what wraps the body (a Task's
  /// result store).
  std::string Guard, AfterPrologue, BodyOpen, BodyClose;
};

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_LIB_OUTLINE_KERNELDRAFT_H
