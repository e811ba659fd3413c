//===- CrashRecovery.h - A crash while compiling one file -------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Clang's recovery from errors crashes on some invalid inputs (clang 19,
/// delayed typo correction inside a lambda: test/tool/clang-crash.test). As
/// clang's own driver does, the tool compiles each file in an
/// llvm::CrashRecoveryContext, so that a crash fails that file with an
/// error instead of killing the tool, and the other files of a run go on.
/// The same invocation then runs through plain clang, with no rule, to say
/// whose crash it was: clang's (it crashes there too) or the tool's.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_CORE_CRASHRECOVERY_H
#define HPP_REWRITE_CORE_CRASHRECOVERY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace clang {
class CompilerInvocation;
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace hpp {
namespace rewrite {

/// Runs \p Fn in a crash recovery context (enabled once for the process;
/// unless setCrashRecovery(false), hpp-rewrite/Driver.h, turned it off).
/// Returns false when it crashed, with the signal's number in \p Signal.
/// With \p DumpStack the crash's stack is printed as LLVM tools print it
/// (where the program installed the handler: llvm::InitLLVM). After a
/// crash, what \p Fn was working on is in an unknown state: leak it.
bool runRecovered(llvm::function_ref<void()> Fn, int &Signal, bool DumpStack);

/// Whose crash it was, once a compile crashed.
enum class CrashOwner { Clang, Tool };

/// Compiles \p Invocation again with clang's syntax-only action, no rule
/// and no output, in a crash recovery context: Clang when that crashes too.
CrashOwner crashOwner(const clang::CompilerInvocation &Invocation,
                      clang::FileManager &Files,
                      std::shared_ptr<clang::PCHContainerOperations> PCH);

/// The message of the error a crash of \p File (signal \p Signal) gives,
/// for \p Owner, after \p ErrorsBefore errors (without the tool's name).
std::string crashMessage(llvm::StringRef File, int Signal, CrashOwner Owner,
                         unsigned ErrorsBefore);

/// The report's rule for such an error (docs/report.md).
llvm::StringRef crashRule(CrashOwner Owner);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_CORE_CRASHRECOVERY_H
