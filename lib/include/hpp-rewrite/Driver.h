//===- hpp-rewrite/Driver.h - Rewriting whole files -------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The library entry point the hpp-rewrite tool calls: parse each source
/// with the dialect headers, run the rules, and return the rewritten text
/// (or nothing, when the translation unit had errors).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_DRIVER_H
#define HPP_REWRITE_DRIVER_H

#include "hpp-rewrite/EditCollector.h"
#include "hpp-rewrite/LineDirective.h"
#include "hpp-rewrite/RewriteArguments.h"
#include "hpp-rewrite/Rule.h"
#include "hpp-rewrite/RuleRegistry.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hpp {
namespace rewrite {

/// Adds the flags of rewriteArguments(\p Paths) to \p Tool, and drops the
/// GPU compilers' flags the C++ parse cannot take (`.cu` and `.hip` sources
/// are parsed as C++).
void addRewriteArguments(clang::tooling::ClangTool &Tool,
                         const HeaderPaths &Paths);

/// The outcome of rewriting one source.
/// The width model's decision for one kernel (a root of device code: a
/// CUDA `__global__` function, a parallelFor, Task or consumer body, a
/// `__device(hpp)` function nothing calls), as the JSON report gives it: why
/// its warp code runs as it does (docs/width-model.md).
struct KernelWidth {
  /// The kernel's name (a function's; `parallelFor`, `Task` or a lambda's
  /// kind for a body) and its place (`FILE:LINE:COL`).
  std::string Name, Place;
  /// "logical32" (32-lane warps on every target), "native" (the device's
  /// width) or "as-written" (each warp operation on the lanes its mask
  /// names).
  std::string Model;
  /// The facts behind it (`FILE:LINE:COL: what`; empty when none): the
  /// first 32-lane fact, and the first use of the real width the kernel
  /// reaches.
  std::string ThirtyTwo, RealWidth;
  /// Its component took facts from other sources, or keeps 32-lane warps
  /// by the program's rule (another kernel's fact).
  bool Joined = false, ProgramNarrowed = false;
};

struct RewriteOutput {
  bool Ok = false;  ///< parsed and rewritten without errors
  std::string Text; ///< the rewritten main file, when Ok
  /// Every file the parse read (the source, its headers, the dialect's
  /// headers), sorted, when Ok: what a build must re-run the rewrite for.
  std::vector<std::string> Dependencies;
  /// The main file as parsed (an absolute path), when Ok.
  std::string File;
  /// Every edit the rules made, in order, when Ok.
  std::vector<EditRecord> Edits;
  /// Replacements on File that turn it into Text byte for byte, when Ok
  /// (EditCollector::mainFileFixes).
  std::vector<clang::tooling::Replacement> Fixes;
  /// Kernels outlined (parallelFor bodies, Tasks, consumers), when Ok.
  unsigned KernelsOutlined = 0;
  /// The width decision of each kernel of the rewritten files, in the order
  /// of the device code, when Ok.
  std::vector<KernelWidth> Kernels;
  /// The project headers the rewrite changed, when Ok.
  std::vector<RewrittenHeader> Headers;
  /// Where this translation unit has device code in project headers, when
  /// Ok: by header (its real path), the byte ranges of the functions that
  /// are device code here. Another unit's edit of a header that this one
  /// did not make is right for this one only outside these ranges (the
  /// tool merges the units' header edits: a function that is host code
  /// here may become device code for another unit, not the reverse).
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>>
      HeaderDeviceCode;
  /// The 32-lane fact that keeps a kernel of this source on 32-lane warps
  /// and narrows the others ("file:line:col: what"), when Ok; empty when
  /// there is none (nor RewriteOptions::ExternalNarrowing).
  std::string Narrowing;
  /// A kernel of this source runs at the device's width (WarpModel::Native),
  /// when Ok: another source's Narrowing would narrow it.
  bool UsesNativeWidth = false;
  /// The width facts of the component of each function of a project header
  /// that is warp code here, by the function's place (`FILE:LINE:COL`),
  /// when Ok: another source that calls the function must decide with them
  /// (RewriteOptions::ExternalWidths).
  std::map<std::string, SharedWidthFacts> HeaderWidths;
  /// The 32-lane fact of a kernel of this source that runs as written
  /// ("file:line:col: what"), when Ok; empty when none.
  std::string AsWritten;
  /// A kernel of this source keeps 32-lane warps by the program's rule
  /// (another kernel's fact), when Ok: another source's AsWritten must be
  /// named to it.
  bool NarrowedByProgram = false;
};

/// One diagnostic as it was reported (the JSON report).
struct DiagnosticRecord {
  /// "error", "fatal", "warning", "remark" or "note".
  std::string Severity;
  /// The rule's tag (`hpp-...`); for the compiler's own diagnostics
  /// `clang-diagnostic-<warning flag>`, or `clang-diagnostic-error` /
  /// `clang-diagnostic-warning` without one (as clang-tidy names them);
  /// empty for a note.
  std::string Rule;
  /// The text, without the `[rule]` tag.
  std::string Message;
  /// Where it points (an absolute path; empty without a location).
  std::string File;
  unsigned Offset = 0, Line = 0, Column = 0;
  /// A fix-it: replace Length bytes at Offset of File with Text.
  struct FixIt {
    std::string File;
    unsigned Offset = 0, Length = 0, Line = 0, Column = 0;
    std::string Text;
  };
  std::vector<FixIt> FixIts;
  /// The notes that follow it.
  std::vector<DiagnosticRecord> Notes;
};

/// The diagnostics of one run of runRewriteTool.
struct DiagnosticLog {
  std::vector<DiagnosticRecord> Diagnostics;
  unsigned Warnings = 0, Errors = 0;
};

/// Whether runRewriteTool compiles each file in a crash recovery context,
/// as clang's driver does (the default): a crash, clang's or the tool's,
/// is then an error of its file (rule `clang-crash` or
/// `hpp-rewrite-crash`), not the end of the process. The fuzzer turns it
/// off, so that every crash reaches it as the signal it is (recovery
/// leaks what the crashed compile held, which its leak checker reports).
void setCrashRecovery(bool Enabled);

/// Whether a compile of this process crashed and was recovered. The crashed
/// compile's objects are left as they were (their stack is gone), among
/// them timers that LLVM's shutdown (llvm_shutdown, ~InitLLVM) would walk:
/// a program that recovered a crash ends with exitAfterCrash instead.
bool crashWasRecovered();

/// Flushes the standard streams and ends the process with \p Status,
/// without running the destructors and LLVM's shutdown a recovered crash
/// makes unsafe (before, the tool aborted there after reporting the crash:
/// "LLVM ERROR: out of memory" from a TimerGroup of the crashed compile).
[[noreturn]] void exitAfterCrash(int Status);

/// Keeps precompiled dialect headers in \p Dir (created when missing):
/// each source whose first line that is not a comment includes
/// <hpp/hpp.h> (or <hpp/runtime.h>) is then parsed with that header
/// precompiled, once per set of options, where that cannot change the
/// parse (lib/Driver/DialectPCH.h says when). Empty, the default: every
/// source is parsed in full.
void setPrecompiledHeaderDir(std::string Dir);

/// Runs \p Tool with \p Factory, its diagnostics printed to stderr as
/// clang prints them; false when anything reported an error, the compiler
/// driver included (ClangTool::run itself lets some driver errors pass,
/// such as a missing ROCm device library under `-x hip`).
bool runRewriteTool(clang::tooling::ClangTool &Tool,
                    clang::tooling::FrontendActionFactory &Factory);
/// Likewise, printing the diagnostics to \p OS instead (one buffer per
/// file when files run in parallel) and, with \p Log, recording them.
bool runRewriteTool(clang::tooling::ClangTool &Tool,
                    clang::tooling::FrontendActionFactory &Factory,
                    llvm::raw_ostream &OS, DiagnosticLog *Log = nullptr);

/// A FrontendActionFactory that rewrites the source it is run on into
/// \p Output (run it on one source at a time), with the warning checks
/// \p Selection enables and the warnings it makes errors.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newRewriteActionFactory(RewriteOutput &Output,
                        const RuleSelection &Selection = RuleSelection(),
                        const RewriteOptions &Options = RewriteOptions());

/// What the first line of a file says of where it came from.
struct OutputOrigin {
  /// The file its `#line 1 "..."` names (unescaped).
  std::string Input;
  /// The line ends with OutputMark; without it, a `#line 1` of another
  /// tool, or the output of a version that did not mark its outputs.
  bool Marked = false;
};

/// The origin \p Text names when its first line is `#line 1 "<file>"`,
/// with or without OutputMark after it; none otherwise.
std::optional<OutputOrigin> outputOrigin(llvm::StringRef Text);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_DRIVER_H
