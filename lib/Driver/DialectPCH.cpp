//===- DialectPCH.cpp - The dialect header parsed once --------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// See DialectPCH.h. The cache directory holds, per set of options (the
/// first 16 hex digits of the SHA-1 of the options' key, `<hash>`):
///   <hash>.uses   the first request was seen (the second one builds);
///   <hash>.h      the stub precompiled: `#include <hpp/hpp.h>`;
///   <hash>.<n>.pch the precompiled header;
///   <hash>.stamp  written last: the whole SHA-1, the name of the
///                 precompiled header (`-` when precompiling printed
///                 something: parse in full), then a line per file it was
///                 built from, `<size> <mtime in ns> <path>`;
///   <hash>.lock   while a process builds it (llvm::LockFileManager).
///
//===----------------------------------------------------------------------===//

#include "DialectPCH.h"
#include "hpp-rewrite/Driver.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Serialization/ModuleManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LockFileManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <chrono>
#include <cstdlib>
#include <mutex>

using namespace clang;
using llvm::StringRef;

namespace hpp {
namespace rewrite {

namespace {
/// Guards the cache directory's setting and the builds of this process
/// (other processes wait on the lock file).
std::mutex CacheMutex;
std::string &cacheDirectory() {
  static std::string Dir;
  return Dir;
}

constexpr StringRef StampMagic = "hpp-rewrite precompiled dialect header 1";

/// The rest of a line, with the line removed from \p S.
StringRef takeLine(StringRef &S) {
  StringRef Line = S.take_until([](char C) { return C == '\n'; });
  S = S.drop_front(std::min(S.size(), Line.size() + 1));
  return Line.rtrim('\r');
}

bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// A `#line` directive's rest, ` 12` or ` 12 "file"`, then nothing but a
/// `//` comment (the tool's own outputs have one: Driver.h, OutputMark).
bool isLineDirectiveRest(StringRef Rest) {
  if (Rest.empty() || !isBlank(Rest.front()))
    return false;
  Rest = Rest.ltrim(" \t");
  StringRef Digits = Rest.take_while(llvm::isDigit);
  if (Digits.empty())
    return false;
  Rest = Rest.drop_front(Digits.size());
  if (!Rest.empty() && !isBlank(Rest.front()))
    return false;
  Rest = Rest.ltrim(" \t");
  if (Rest.consume_front("\"")) {
    size_t Close = Rest.find('"');
    if (Close == StringRef::npos || Rest.take_front(Close).contains('\\'))
      return false;
    Rest = Rest.drop_front(Close + 1);
    if (!Rest.empty() && !isBlank(Rest.front()))
      return false;
    Rest = Rest.ltrim(" \t");
  }
  return Rest.empty() || Rest.starts_with("//");
}

/// One file the precompiled header was built from, as the stamp says.
struct Input {
  uint64_t Size = 0;
  int64_t Time = 0;
  std::string Path;
};

/// \p Path's size and modification time through \p FS; false when it
/// cannot be read.
bool statInput(llvm::vfs::FileSystem &FS, StringRef Path, Input &In) {
  llvm::ErrorOr<llvm::vfs::Status> St = FS.status(Path);
  if (!St)
    return false;
  In.Size = St->getSize();
  In.Time = St->getLastModificationTime().time_since_epoch().count();
  In.Path = Path.str();
  return true;
}

/// What a valid stamp says: the precompiled header's file name, or `-`.
std::optional<std::string> readStamp(StringRef StampPath, StringRef Digest,
                                     StringRef Dir, llvm::vfs::FileSystem &FS) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(StampPath);
  if (!Buffer)
    return std::nullopt;
  StringRef Text = (*Buffer)->getBuffer();
  if (takeLine(Text) != StampMagic || takeLine(Text) != Digest)
    return std::nullopt;
  std::string PCH = takeLine(Text).str();
  if (PCH.empty())
    return std::nullopt;
  while (!Text.empty()) {
    StringRef Line = takeLine(Text);
    auto [SizeText, Rest] = Line.split(' ');
    auto [TimeText, Path] = Rest.split(' ');
    Input Stored, Now;
    if (SizeText.getAsInteger(10, Stored.Size) ||
        TimeText.getAsInteger(10, Stored.Time) || Path.empty() ||
        !statInput(FS, Path, Now) || Now.Size != Stored.Size ||
        Now.Time != Stored.Time)
      return std::nullopt;
  }
  if (PCH != "-") {
    llvm::SmallString<256> Full(Dir);
    llvm::sys::path::append(Full, PCH);
    if (!llvm::sys::fs::exists(Full))
      return std::nullopt;
    return std::string(Full);
  }
  return PCH;
}

/// Writes \p Text to \p Path through a temporary file renamed into place:
/// a reader sees the old file or the whole new one.
bool writeAtomically(StringRef Path, StringRef Text) {
  llvm::SmallString<256> Temp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temp))
    return false;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

/// Counts what precompiling printed, and keeps the first message.
class QuietConsumer : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= DiagnosticsEngine::Warning && First.empty()) {
      llvm::SmallString<128> Text;
      Info.FormatDiagnostic(Text);
      First = std::string(Text);
    }
  }
  std::string First;
};

/// GeneratePCHAction that keeps the files the header was built from.
class RecordingPCHAction : public GeneratePCHAction {
public:
  explicit RecordingPCHAction(std::vector<Input> &Inputs, StringRef Stub)
      : Inputs(Inputs), Stub(Stub) {}

  void EndSourceFileAction() override {
    CompilerInstance &CI = getCompilerInstance();
    SourceManager &SM = CI.getSourceManager();
    llvm::vfs::FileSystem &FS = CI.getFileManager().getVirtualFileSystem();
    for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End;
         ++It) {
      llvm::SmallString<256> Path(It->getFirst().getName());
      // `..` stays: the directory before it may be a symbolic link (a
      // toolchain found as /lib/gcc/..., /lib a link to /usr/lib).
      CI.getFileManager().makeAbsolutePath(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
      if (Path == Stub)
        continue;
      Input In;
      if (!statInput(FS, Path, In))
        Missing = true;
      Inputs.push_back(std::move(In));
    }
    GeneratePCHAction::EndSourceFileAction();
  }
  bool Missing = false;

private:
  std::vector<Input> &Inputs;
  std::string Stub;
};

/// True when \p Inv names a file or directory by a path relative to the
/// working directory: then where the command runs decides what the
/// header's includes find, and the working directory is part of the key.
bool namesRelativePaths(const CompilerInvocation &Inv) {
  auto Relative = [](StringRef Path) {
    return !Path.empty() && !llvm::sys::path::is_absolute(Path);
  };
  auto AnyRelative = [&](const std::vector<std::string> &Paths) {
    return llvm::any_of(Paths, Relative);
  };
  const HeaderSearchOptions &HS = Inv.getHeaderSearchOpts();
  const PreprocessorOptions &PP = Inv.getPreprocessorOpts();
  return Relative(HS.Sysroot) || Relative(HS.ResourceDir) ||
         Relative(HS.ModuleCachePath) || Relative(PP.ImplicitPCHInclude) ||
         !Inv.getFileSystemOpts().WorkingDir.empty() ||
         llvm::any_of(HS.UserEntries,
                      [&](const HeaderSearchOptions::Entry &E) {
                        return Relative(E.Path);
                      }) ||
         AnyRelative(HS.PrebuiltModulePaths) ||
         AnyRelative(HS.VFSOverlayFiles) || AnyRelative(PP.Includes) ||
         AnyRelative(PP.MacroIncludes);
}

/// The key of \p Inv's options: everything but the input decides what the
/// precompiled header holds. The working directory \p Cwd only where a
/// path is relative to it: the debug and coverage compilation directories
/// the driver sets to it play no part in a parse.
std::string optionsKey(const CompilerInvocation &Inv, StringRef Header,
                       StringRef Cwd) {
  CompilerInvocation Copy(Inv);
  Copy.getFrontendOpts().Inputs.clear();
  Copy.getFrontendOpts().OutputFile.clear();
  Copy.getCodeGenOpts().MainFileName.clear();
  Copy.getCodeGenOpts().DebugCompilationDir.clear();
  Copy.getCodeGenOpts().CoverageCompilationDir.clear();
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  OS << StampMagic << '\n'
     << getClangFullVersion() << '\n'
     << (namesRelativePaths(Copy) ? Cwd : StringRef()) << '\n'
     << Header << '\n';
  for (const std::string &A : Copy.getCC1CommandLine())
    OS << A << '\n';
  return Key;
}

/// The decision for one source, said when HPP_REWRITE_PCH_EXPLAIN=1.
class Explainer {
public:
  Explainer(llvm::raw_ostream &OS, StringRef File) : OS(OS), File(File) {
    const char *E = std::getenv("HPP_REWRITE_PCH_EXPLAIN");
    On = E && StringRef(E) == "1";
  }
  void operator()(const llvm::Twine &Why) {
    if (On)
      OS << "hpp-rewrite: " << File << ": " << Why << "\n";
  }

private:
  llvm::raw_ostream &OS;
  std::string File;
  bool On = false;
};

} // namespace

void setPrecompiledHeaderDir(std::string Dir) {
  std::lock_guard<std::mutex> Guard(CacheMutex);
  cacheDirectory() = std::move(Dir);
}

std::optional<StringRef> leadingDialectInclude(StringRef S) {
  S.consume_front("\xEF\xBB\xBF"); // A UTF-8 byte order mark.
  while (true) {
    S = S.ltrim(" \t\r\n\f\v");
    if (S.consume_front("//")) {
      if (takeLine(S).ends_with("\\"))
        return std::nullopt; // The comment goes on: keep it simple.
      continue;
    }
    if (S.consume_front("/*")) {
      size_t End = S.find("*/");
      if (End == StringRef::npos)
        return std::nullopt;
      S = S.drop_front(End + 2);
      continue;
    }
    if (!S.consume_front("#"))
      return std::nullopt;
    StringRef Line = takeLine(S).ltrim(" \t");
    if (Line.ends_with("\\"))
      return std::nullopt; // The directive goes on: keep it simple.
    if (Line.consume_front("line")) {
      if (!isLineDirectiveRest(Line))
        return std::nullopt;
      continue;
    }
    if (!Line.consume_front("include"))
      return std::nullopt;
    Line = Line.trim(" \t");
    for (StringRef Header : {"hpp/hpp.h", "hpp/runtime.h"})
      if (Line == ("<" + Header + ">").str())
        return Header;
    return std::nullopt;
  }
}

void usePrecompiledDialect(
    CompilerInvocation &Invocation, FileManager &Files,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    llvm::raw_ostream &ExplainOS) {
  std::lock_guard<std::mutex> Guard(CacheMutex);
  const std::string Dir = cacheDirectory();
  if (Dir.empty())
    return;
  const FrontendOptions &FO = Invocation.getFrontendOpts();
  if (FO.Inputs.size() != 1 || !FO.Inputs[0].isFile())
    return;
  const std::string File = FO.Inputs[0].getFile().str();
  Explainer Explain(ExplainOS, File);
  const InputKind Kind = FO.Inputs[0].getKind();
  const PreprocessorOptions &PPO = Invocation.getPreprocessorOpts();
  if ((Kind.getLanguage() != Language::CXX &&
       Kind.getLanguage() != Language::CUDA) ||
      Kind.isHeader() || Kind.isPreprocessed() ||
      Invocation.getLangOpts().Modules) {
    Explain("parsed in full: not a C++ or CUDA source");
    return;
  }
  // The header: port mode's `-include cuda_runtime.h` (as nvcc makes every
  // .cu source include it; a stub that includes it by the same name finds
  // the same file where the working directory holds none of that name;
  // the tool's declarations are guarded), else the dialect header the
  // source includes first.
  llvm::vfs::FileSystem &FS = Files.getVirtualFileSystem();
  llvm::ErrorOr<std::string> Cwd = FS.getCurrentWorkingDirectory();
  std::optional<StringRef> Header;
  std::string Stubbed, CommandInclude;
  if (PPO.Includes.size() == 1 && PPO.Includes[0] == "cuda_runtime.h" &&
      PPO.ImplicitPCHInclude.empty() && PPO.MacroIncludes.empty()) {
    CommandInclude = PPO.Includes[0]; // Use() clears the command's.
    llvm::SmallString<256> InCwd(Cwd ? *Cwd : std::string());
    llvm::sys::path::append(InCwd, CommandInclude);
    if (!llvm::sys::path::is_absolute(CommandInclude) && FS.exists(InCwd)) {
      Explain("parsed in full: the working directory holds a '" +
              CommandInclude + "' of its own");
      return;
    }
    Header = CommandInclude;
    Stubbed = "#include \"" + CommandInclude + "\"\n";
  } else if (!PPO.ImplicitPCHInclude.empty() || !PPO.Includes.empty() ||
             !PPO.MacroIncludes.empty()) {
    Explain("parsed in full: the command includes a file first");
    return;
  }
  auto Buffer = Files.getBufferForFile(File);
  if (!Buffer)
    return;
  if (!Header)
    Header = leadingDialectInclude((*Buffer)->getBuffer());
  if (!Header) {
    Explain("parsed in full: its first line that is not blank, a comment or "
            "#line does not include <hpp/hpp.h> or <hpp/runtime.h>");
    return;
  }
  if (Stubbed.empty())
    Stubbed = "#include <" + Header->str() + ">\n";
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    Explain("parsed in full: cannot create '" + Dir + "': " + EC.message());
    return;
  }
  llvm::SmallString<256> AbsDir(Dir);
  llvm::sys::fs::make_absolute(AbsDir);
  llvm::sys::path::remove_dots(AbsDir, /*remove_dot_dot=*/true);
  const std::string Key =
      optionsKey(Invocation, *Header, Cwd ? *Cwd : std::string());
  const std::string Digest =
      llvm::toHex(llvm::SHA1::hash(llvm::arrayRefFromStringRef(Key)), true);
  llvm::SmallString<256> Base(AbsDir);
  llvm::sys::path::append(Base, StringRef(Digest).take_front(16));
  const std::string Stamp = (Base + ".stamp").str();

  auto Use = [&](const std::string &Found) {
    if (Found == "-") {
      Explain("parsed in full: precompiling <" + *Header +
              "> with its options printed diagnostics");
      return;
    }
    // The command's own `-include cuda_runtime.h` stays: the precompiled
    // header holds it, so its include guard makes it empty (and the rules
    // see what the command asked for).
    Invocation.getPreprocessorOpts().ImplicitPCHInclude = Found;
    // Clang checks the files again as it reads the header, those of the
    // system directories too (the dialect's are): a file changed since
    // the stamp's check is an error, never an old declaration.
    Invocation.getHeaderSearchOpts().ModulesValidateSystemHeaders = true;
    Explain("parsed with <" + *Header + "> precompiled (" + Found + ")");
  };
  if (std::optional<std::string> Found = readStamp(Stamp, Digest, AbsDir, FS))
    return Use(*Found);
  const std::string Uses = (Base + ".uses").str();
  if (!llvm::sys::fs::exists(Uses)) {
    writeAtomically(Uses, Key);
    Explain("parsed in full: the first request for these options");
    return;
  }

  llvm::LockFileManager Lock(Base);
  switch (Lock.getState()) {
  case llvm::LockFileManager::LFS_Error:
    Explain("parsed in full: cannot lock '" + Base +
            "': " + Lock.getErrorMessage());
    return;
  case llvm::LockFileManager::LFS_Shared:
    // Another process builds it: wait, then take what it made.
    (void)Lock.waitForUnlock();
    if (std::optional<std::string> Found = readStamp(Stamp, Digest, AbsDir, FS))
      return Use(*Found);
    Explain("parsed in full: another process did not finish the header");
    return;
  case llvm::LockFileManager::LFS_Owned:
    break;
  }
  if (std::optional<std::string> Found = readStamp(Stamp, Digest, AbsDir, FS))
    return Use(*Found);

  // Build it: the stub, then the header under a name of its own.
  const std::string Stub = (Base + ".h").str();
  if (!writeAtomically(Stub, Stubbed)) {
    Explain("parsed in full: cannot write '" + Stub + "'");
    return;
  }
  const std::string Name =
      (llvm::sys::path::filename(Base) + "." +
       llvm::Twine(static_cast<uint64_t>(
           std::chrono::system_clock::now().time_since_epoch().count())) +
       "." + llvm::Twine(llvm::sys::Process::getProcessId()) + ".pch")
          .str();
  llvm::SmallString<256> Out(AbsDir);
  llvm::sys::path::append(Out, Name);
  auto PCHInvocation = std::make_shared<CompilerInvocation>(Invocation);
  FrontendOptions &PFO = PCHInvocation->getFrontendOpts();
  PFO.Inputs.clear();
  PFO.Inputs.emplace_back(Stub, InputKind(Kind.getLanguage()).getHeader());
  PCHInvocation->getPreprocessorOpts().Includes.clear();
  PFO.OutputFile = std::string(Out);
  PFO.ProgramAction = frontend::GeneratePCH;
  PCHInvocation->getCodeGenOpts().MainFileName.clear();
  PCHInvocation->getLangOpts().PCHInstantiateTemplates = true;
  QuietConsumer Quiet;
  std::vector<Input> Inputs;
  bool Built = false, Missing = false;
  {
    CompilerInstance Compiler(PCHContainerOps);
    Compiler.setInvocation(std::move(PCHInvocation));
    Compiler.createDiagnostics(&Quiet, /*ShouldOwnClient=*/false);
    Compiler.createFileManager(Files.getVirtualFileSystemPtr());
    RecordingPCHAction Action(Inputs, Stub);
    Built = Compiler.ExecuteAction(Action);
    Missing = Action.Missing;
  }
  const bool Clean = Built && !Missing && Quiet.getNumWarnings() == 0 &&
                     Quiet.getNumErrors() == 0;
  if (!Clean)
    llvm::sys::fs::remove(Out);
  // The stamp last: it makes the header visible. An older header of these
  // options goes (no process uses it: its stamp no longer held).
  std::string Previous;
  if (auto Old = llvm::MemoryBuffer::getFile(Stamp)) {
    StringRef Text = (*Old)->getBuffer();
    takeLine(Text);
    takeLine(Text);
    Previous = takeLine(Text).str();
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << StampMagic << '\n' << Digest << '\n' << (Clean ? Name : "-") << '\n';
  for (const Input &In : Inputs)
    OS << In.Size << ' ' << In.Time << ' ' << In.Path << '\n';
  if (!writeAtomically(Stamp, Text)) {
    llvm::sys::fs::remove(Out);
    Explain("parsed in full: cannot write '" + Stamp + "'");
    return;
  }
  if (!Previous.empty() && Previous != "-" && Previous != Name) {
    llvm::SmallString<256> Old(AbsDir);
    llvm::sys::path::append(Old, Previous);
    llvm::sys::fs::remove(Old);
  }
  if (!Clean) {
    Explain("parsed in full: precompiling <" + *Header + "> " +
            (!Quiet.First.empty() ? "printed " + Quiet.First
             : Missing            ? std::string("read a file that is gone")
                                  : std::string("failed")));
    return;
  }
  Use(std::string(Out));
}

std::vector<std::string> precompiledInputs(CompilerInstance &CI) {
  std::vector<std::string> Files;
  if (CI.getPreprocessorOpts().ImplicitPCHInclude.empty())
    return Files;
  llvm::IntrusiveRefCntPtr<ASTReader> Reader = CI.getASTReader();
  if (!Reader)
    return Files;
  for (serialization::ModuleFile &MF : Reader->getModuleManager()) {
    if (MF.Kind != serialization::MK_PCH)
      continue;
    Reader->visitInputFileInfos(
        MF, /*IncludeSystem=*/true,
        [&](const serialization::InputFileInfo &IFI, bool) {
          if (!IFI.TopLevel) // The stub the header was made from.
            Files.push_back(IFI.Filename);
        });
  }
  return Files;
}

} // namespace rewrite
} // namespace hpp
