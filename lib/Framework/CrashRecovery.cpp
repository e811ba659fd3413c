//===- CrashRecovery.cpp - A crash while compiling one file ---------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Framework/CrashRecovery.h"
#include "hpp-rewrite/Driver.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace clang;

namespace hpp {
namespace rewrite {

static std::atomic<bool> Recovering{true};
static std::atomic<bool> Recovered{false};

void setCrashRecovery(bool Enabled) { Recovering = Enabled; }

bool crashWasRecovered() { return Recovered; }

void exitAfterCrash(int Status) {
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  std::_Exit(Status);
}

bool runRecovered(llvm::function_ref<void()> Fn, int &Signal, bool DumpStack) {
  if (!Recovering) {
    Fn();
    return true;
  }
  static std::once_flag Enabled;
  std::call_once(Enabled, [] { llvm::CrashRecoveryContext::Enable(); });
  llvm::CrashRecoveryContext Context;
  Context.DumpStackAndCleanupOnFailure = DumpStack;
  if (Context.RunSafely(Fn))
    return true;
  Recovered = true;
  // On POSIX systems the context's code is 128 plus the signal's number.
  Signal = Context.RetCode > 128 ? Context.RetCode - 128 : 0;
  return false;
}

CrashOwner crashOwner(const CompilerInvocation &Invocation, FileManager &Files,
                      std::shared_ptr<PCHContainerOperations> PCH) {
  // Owned by a compiler that may be leaked below: never freed.
  auto *Quiet = new IgnoringDiagConsumer;
  auto Compiler = std::make_unique<CompilerInstance>(std::move(PCH));
  Compiler->setInvocation(std::make_shared<CompilerInvocation>(Invocation));
  Compiler->setFileManager(&Files);
  Compiler->setVerboseOutputStream(llvm::nulls()); // "N errors generated."
  Compiler->createDiagnostics(Quiet, /*ShouldOwnClient=*/false);
  Compiler->createSourceManager(Files);
  auto Action = std::make_unique<SyntaxOnlyAction>();
  int Signal = 0;
  if (runRecovered([&] { Compiler->ExecuteAction(*Action); }, Signal,
                   /*DumpStack=*/false)) {
    Action.reset();
    Compiler.reset();
    delete Quiet;
    return CrashOwner::Tool;
  }
  (void)Action.release(); // Their state after the crash is unknown.
  (void)Compiler.release();
  return CrashOwner::Clang;
}

std::string crashMessage(llvm::StringRef File, int Signal, CrashOwner Owner,
                         unsigned ErrorsBefore) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << (Owner == CrashOwner::Clang ? "clang crashed while compiling '"
                                    : "hpp-rewrite crashed while rewriting '")
     << File << "'";
  if (Signal > 0)
    OS << " (signal " << Signal << ": " << ::strsignal(Signal) << ")";
  OS << "; the file is not rewritten. ";
  if (Owner == CrashOwner::Tool) {
    OS << "This is a bug in hpp-rewrite: please report it, with the input "
          "and the stack dump above";
    return Text;
  }
  OS << "Clang crashes on this input without hpp-rewrite too";
  if (ErrorsBefore)
    OS << ", in its recovery from the " << ErrorsBefore
       << (ErrorsBefore == 1 ? " error" : " errors")
       << " above: fix those errors";
  else
    OS << ": a bug in clang, to report to LLVM with the input";
  return Text;
}

llvm::StringRef crashRule(CrashOwner Owner) {
  return Owner == CrashOwner::Clang ? "clang-crash" : "hpp-rewrite-crash";
}

} // namespace rewrite
} // namespace hpp
