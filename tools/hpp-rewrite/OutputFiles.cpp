//===- OutputFiles.cpp - Writing the rewritten sources safely -------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// See OutputFiles.h.
///
//===----------------------------------------------------------------------===//

#include "OutputFiles.h"
#include "hpp-rewrite/Driver.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

using namespace llvm;

namespace hpp {
namespace tool {

static const char DevNull[] = "/dev/null";

static Error fail(const Twine &Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write '" + Path + "': " + Why);
}

Expected<std::string> resolveDestination(StringRef Path,
                                         ArrayRef<std::string> Inputs) {
  if (Path == DevNull)
    return Path.str();
  sys::fs::file_status Link;
  if (std::error_code EC = sys::fs::status(Path, Link, /*follow=*/false)) {
    if (EC == std::errc::no_such_file_or_directory)
      return Path.str(); // A new file.
    return fail(Path, EC.message());
  }
  SmallString<256> Real;
  if (std::error_code EC = sys::fs::real_path(Path, Real)) {
    if (Link.type() == sys::fs::file_type::symlink_file)
      return fail(Path, "it is a symbolic link to a file that does not exist");
    return fail(Path, EC.message());
  }
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Real, Status))
    return fail(Path, EC.message());
  if (Status.type() == sys::fs::file_type::directory_file)
    return fail(Path, "it is a directory");
  if (Status.type() != sys::fs::file_type::regular_file)
    return fail(Path, "it is not a regular file (a FIFO, a device or a "
                      "socket); only /dev/null is accepted");
  for (const std::string &In : Inputs) {
    bool Same = false;
    if (!sys::fs::equivalent(Real, In, Same) && Same)
      return fail(Path, "it is the input '" + In +
                            "'; use --in-place to rewrite a source in place");
  }
  return std::string(Real);
}

/// \p Path absolute, without `.` or `..`.
static std::string normalized(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

ProjectFiles::ProjectFiles(ArrayRef<std::string> Files) {
  for (const std::string &F : Files)
    this->Files.push_back(normalized(F));
  llvm::sort(this->Files);
}

bool ProjectFiles::contains(StringRef Path) const {
  const std::string N = normalized(Path);
  if (std::binary_search(Files.begin(), Files.end(), N))
    return true;
  if (Files.empty() || !sys::fs::exists(N))
    return false;
  if (Real.empty()) { // Symbolic links resolved, once.
    for (const std::string &F : Files) {
      SmallString<256> R;
      Real.push_back(sys::fs::real_path(F, R) ? F : std::string(R));
    }
    llvm::sort(Real);
  }
  SmallString<256> R;
  return !sys::fs::real_path(N, R) &&
         std::binary_search(Real.begin(), Real.end(), std::string(R));
}

/// Whether \p A and \p B name the same existing file.
static bool sameFile(StringRef A, StringRef B) {
  bool Same = false;
  return !sys::fs::equivalent(A, B, Same) && Same;
}

Error checkReplaceable(StringRef Dest, StringRef Input,
                       const ProjectFiles &Project) {
  if (Dest == DevNull)
    return Error::success();
  const bool Exists = sys::fs::exists(Dest);
  std::optional<rewrite::OutputOrigin> Origin;
  std::unique_ptr<MemoryBuffer> Text;
  if (Exists) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B =
        MemoryBuffer::getFile(Dest, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!B)
      return fail(Dest, B.getError().message());
    Text = std::move(*B);
    Origin = rewrite::outputOrigin(Text->getBuffer());
    if (Origin && Origin->Marked && !sameFile(Origin->Input, Dest))
      return Error::success(); // Its own output: a build step's too.
  }
  if (Project.contains(Dest))
    return fail(Dest, "it is a source of the compilation database, which "
                      "hpp-rewrite does not replace; choose another "
                      "destination");
  if (!Exists)
    return Error::success();
  if (Origin && !Origin->Marked && sameFile(Origin->Input, Input))
    return Error::success(); // An output of an earlier version.
  ErrorOr<std::unique_ptr<MemoryBuffer>> In =
      MemoryBuffer::getFile(Input, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (In && (*In)->getBuffer() == Text->getBuffer())
    return Error::success(); // A copy of the input.
  return fail(Dest,
              "the file exists and is not an output of hpp-rewrite (its "
              "first line is not '#line 1 \"...\" " +
                  rewrite::OutputMark +
                  "'); hpp-rewrite replaces only its own outputs: remove the "
                  "file or choose another destination");
}

Error makeDirectories(ArrayRef<PendingOutput> Outputs,
                      std::vector<std::string> &Created) {
  for (const PendingOutput &O : Outputs) {
    std::vector<std::string> Missing;
    for (StringRef Dir = sys::path::parent_path(O.Path);
         !Dir.empty() && !sys::fs::exists(Dir);
         Dir = sys::path::parent_path(Dir))
      Missing.push_back(Dir.str());
    for (auto It = Missing.rbegin(); It != Missing.rend(); ++It) {
      if (std::error_code EC = sys::fs::create_directory(*It))
        return createStringError(EC, "cannot create directory '" + *It +
                                         "': " + EC.message());
      Created.push_back(*It);
    }
  }
  return Error::success();
}

/// The Makefile rule "Target: Deps...", spaces and '#' escaped as make and
/// Ninja read them.
std::string depFileText(StringRef Target,
                        const std::vector<std::string> &Deps) {
  auto Escape = [](StringRef P) {
    std::string Out;
    for (char C : P) {
      if (C == ' ' || C == '#')
        Out += '\\';
      else if (C == '$')
        Out += '$';
      Out += C;
    }
    return Out;
  };
  std::string Text = Escape(Target) + ":";
  for (const std::string &D : Deps)
    Text += " \\\n  " + Escape(D);
  return Text + "\n";
}

namespace {
/// One destination during the commit.
struct Step {
  std::string Dest, Temp, Undo;
  bool Existed = false, Renamed = false, KeepUndo = false;
};
} // namespace

/// Removes the temporaries of \p Steps, and the undo copies not kept.
static void cleanUp(std::vector<Step> &Steps, bool KeepBackups) {
  for (Step &S : Steps) {
    if (!S.Temp.empty() && !S.Renamed)
      sys::fs::remove(S.Temp);
    if (!S.Undo.empty() && !(KeepBackups && S.KeepUndo))
      sys::fs::remove(S.Undo);
  }
}

/// Writes \p Text to a new temporary file beside \p Dest, with \p Dest's
/// permissions when it exists.
static Error writeTemp(Step &S, StringRef Text) {
  sys::fs::file_status Status;
  S.Existed = !sys::fs::status(S.Dest, Status);
  int FD = -1;
  SmallString<256> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(
          S.Dest + ".hpp-rewrite-%%%%%%.tmp", FD, Temp))
    return fail(S.Dest,
                "cannot create a temporary file beside it: " + EC.message());
  S.Temp = std::string(Temp);
  sys::RemoveFileOnSignal(S.Temp); // A kill leaves no temporary behind.
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      return fail(S.Dest, EC.message());
    }
  }
  if (S.Existed)
    if (std::error_code EC =
            sys::fs::setPermissions(S.Temp, Status.permissions()))
      return fail(S.Dest, EC.message());
  return Error::success();
}

Error writeAllOrNothing(ArrayRef<PendingOutput> Outputs, unsigned PauseMs) {
  std::vector<Step> Steps;
  Steps.reserve(Outputs.size());
  // 1. Every text into a temporary file; nothing replaced yet.
  for (const PendingOutput &O : Outputs) {
    if (O.Path == DevNull)
      continue;
    // A file that already holds the text is left as it is (its time too:
    // a build that restats its outputs compiles nothing again for it).
    if (!O.Backup && !O.Force)
      if (auto Old = MemoryBuffer::getFile(O.Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false))
        if ((*Old)->getBuffer() == O.Text)
          continue;
    Steps.push_back({O.Path, "", "", false, false, O.Backup});
    if (Error E = writeTemp(Steps.back(), O.Text)) {
      cleanUp(Steps, false);
      return E;
    }
  }
  // 2. A copy of each file to be replaced: the backup, or an undo copy.
  for (Step &S : Steps) {
    if (!S.Existed)
      continue;
    SmallString<256> Undo;
    if (S.KeepUndo) {
      Undo = S.Dest + ".orig";
    } else if (std::error_code EC = sys::fs::createUniqueFile(
                   S.Dest + ".hpp-rewrite-undo-%%%%%%", Undo)) {
      cleanUp(Steps, false);
      return fail(S.Dest, "cannot save a copy of it: " + EC.message());
    }
    S.Undo = std::string(Undo);
    if (!S.KeepUndo)
      sys::RemoveFileOnSignal(S.Undo);
    if (std::error_code EC = sys::fs::copy_file(S.Dest, S.Undo)) {
      cleanUp(Steps, false);
      return fail(S.Dest, "cannot save a copy of it as '" + S.Undo +
                              "': " + EC.message());
    }
  }
  // 3. The renames, each atomic; a failure puts back the ones made.
  for (Step &S : Steps) {
    if (std::error_code EC = sys::fs::rename(S.Temp, S.Dest)) {
      Error E = fail(S.Dest, EC.message());
      for (Step &Done : Steps) {
        if (!Done.Renamed)
          continue;
        if (Done.Existed)
          (void)sys::fs::copy_file(Done.Undo, Done.Dest);
        else
          (void)sys::fs::remove(Done.Dest);
      }
      cleanUp(Steps, false);
      return E;
    }
    S.Renamed = true;
    sys::DontRemoveFileOnSignal(S.Temp);
    if (PauseMs)
      std::this_thread::sleep_for(std::chrono::milliseconds(PauseMs));
  }
  cleanUp(Steps, true);
  return Error::success();
}

} // namespace tool
} // namespace hpp
