//===- Fuzzer.cpp - libFuzzer target over the rewrite ---------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `hpp-rewrite-fuzzer [libFuzzer flags] [corpus dirs or files]`: rewrites
/// each input, as the main file of a translation unit held in memory,
/// through the tool's own entry point (addRewriteArguments, the rewrite
/// action, runRewriteTool with its diagnostic log) and throws the result
/// away. Diagnostics are expected; a crash, a sanitizer report or a failed
/// assert() is a finding. The tool's crash recovery is off here
/// (hpp::rewrite::setCrashRecovery), so a crash of clang itself is a
/// finding too: `hpp-rewrite` on the input says whose it is (docs/guide.md,
/// "Fuzzing").
///
/// The dialect header is parsed once: LLVMFuzzerInitialize builds a PCH of
/// `#include <hpp/hpp.h>` with the same flags, and every input is parsed
/// with `-include-pch` (so the dialect is there even when a mutation broke
/// the input's own #include). Environment: HPP_FUZZ_PCH=0 parses the
/// header with every input instead; HPP_FUZZ_PRINT=1 prints each rewrite
/// and its diagnostics (for a finding, or to compare the two modes);
/// HPP_REWRITE_RESOURCE_DIR / _INCLUDE_DIR / _RUNTIME_DIR as for the tool.
///
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/Driver.h"

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::tooling;
using namespace llvm;

namespace {

/// The main file every input becomes (in memory; never on disk).
const char *const MainFile = "/hpp-fuzz/input.cpp";
/// The source of the PCH (in memory too, mapped for every input: the PCH
/// is checked against it).
const char *const PchSource = "/hpp-fuzz/dialect.h";
const char *const PchText = "#include <hpp/hpp.h>\n";

/// What LLVMFuzzerInitialize sets up once.
struct FuzzState {
  hpp::rewrite::HeaderPaths Paths;
  std::string Pch; ///< the PCH file; empty when HPP_FUZZ_PCH=0
  bool Print = false;
};

FuzzState &state() {
  static FuzzState State;
  return State;
}

std::string setting(const char *Env, const char *BuiltIn) {
  if (std::optional<std::string> V = sys::Process::GetEnv(Env))
    return *V;
  return BuiltIn;
}

/// The compile command flags of every parse, before addRewriteArguments
/// adds the tool's own: `#pragma clang __debug crash` and its kind crash
/// clang on purpose, which is no finding.
std::vector<std::string> baseFlags() {
  return {"-Xclang", "-disable-pragma-debug-crash"};
}

/// Runs GeneratePCHAction, writing the PCH to \p Out, where the tool runs
/// its rewrite.
class PchFactory : public FrontendActionFactory {
public:
  explicit PchFactory(std::string Out) : Out(std::move(Out)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<GeneratePCHAction>();
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    Invocation->getFrontendOpts().OutputFile = Out;
    Invocation->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    return FrontendActionFactory::runInvocation(
        std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
  }

private:
  std::string Out;
};

/// Builds the PCH of the dialect header into a temporary file; false (with
/// the compiler's diagnostics on stderr) when it fails.
bool buildPch(FuzzState &State) {
  SmallString<256> Path;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("hpp-fuzz-dialect", "pch", Path)) {
    errs() << "hpp-rewrite-fuzzer: cannot create the PCH file: " << EC.message()
           << "\n";
    return false;
  }
  std::vector<std::string> Flags = baseFlags();
  // The header's pending template instantiations are done once, in the
  // PCH, not again for every input.
  Flags.insert(Flags.end(),
               {"-x", "c++-header", "-fpch-instantiate-templates"});
  FixedCompilationDatabase Database(".", Flags);
  ClangTool Tool(Database, {PchSource});
  Tool.mapVirtualFile(PchSource, PchText);
  hpp::rewrite::addRewriteArguments(Tool, State.Paths);
  PchFactory Factory{std::string(Path)};
  if (Tool.run(&Factory) != 0) {
    errs() << "hpp-rewrite-fuzzer: building the PCH of hpp/hpp.h failed\n";
    sys::fs::remove(Path);
    return false;
  }
  State.Pch = std::string(Path);
  std::atexit([] { sys::fs::remove(state().Pch); });
  return true;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  FuzzState &State = state();
  State.Paths = {setting("HPP_REWRITE_RESOURCE_DIR", HPP_CLANG_RESOURCE_DIR),
                 setting("HPP_REWRITE_INCLUDE_DIR", HPP_SOURCE_INCLUDE_DIR),
                 setting("HPP_REWRITE_RUNTIME_DIR", HPP_SOURCE_RUNTIME_DIR)};
  State.Print = setting("HPP_FUZZ_PRINT", "0") == "1";
  hpp::rewrite::setCrashRecovery(false); // Every crash is the fuzzer's.
  if (setting("HPP_FUZZ_PCH", "1") != "0" && !buildPch(State))
    std::exit(1); // A broken setup, not a finding.
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const FuzzState &State = state();
  // A copy: clang reads a buffer up to its terminating NUL, which the
  // fuzzer's bytes do not have.
  const std::string Source(reinterpret_cast<const char *>(Data), Size);
  std::vector<std::string> Flags = baseFlags();
  if (!State.Pch.empty())
    Flags.insert(Flags.end(), {"-include-pch", State.Pch});
  FixedCompilationDatabase Database(".", Flags);
  ClangTool Tool(Database, {MainFile});
  Tool.setPrintErrorMessage(false);
  Tool.mapVirtualFile(MainFile, Source);
  if (!State.Pch.empty())
    Tool.mapVirtualFile(PchSource, PchText);
  hpp::rewrite::addRewriteArguments(Tool, State.Paths);

  hpp::rewrite::RewriteOutput Output;
  auto Factory = hpp::rewrite::newRewriteActionFactory(Output);
  hpp::rewrite::DiagnosticLog Log;
  std::string Diagnostics;
  raw_string_ostream OS(Diagnostics);
  const bool Ok =
      hpp::rewrite::runRewriteTool(Tool, *Factory, OS, &Log) && Output.Ok;
  if (State.Print) {
    OS.flush();
    errs() << Diagnostics;
    outs() << (Ok ? Output.Text : "(no rewrite)\n");
    outs().flush();
  }
  return 0;
}
