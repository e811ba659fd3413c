//===- EditCollectorTest.cpp - Edits that collide, reported and refused ---===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Drives EditCollector with edits of two rules on one range, which no
/// input makes the tool's rules produce today (a rule that moves text
/// carries the edits inside it along: EditCollector::extract). The
/// promise under test: such a collision is a located error tagged with
/// the second rule, the edit is not made, and the error makes the driver
/// write nothing (the driver writes no output for a TU with errors).
///
/// usage: hpp-rewrite-unittests CASE   (prints what happened; exit status
/// 0 when the case behaved as promised)
///   overlap  two rules edit overlapping ranges
///   same     two rules replace one range with different text
///   inside   a second rule edits inside the first one's range
///   apart    two rules edit ranges that do not meet (both made)
///
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/EditCollector.h"
#include "hpp-rewrite/Diagnostics.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace clang;
using namespace hpp::rewrite;

namespace {

const char *const Path = "/unit/input.cpp";
const char *const Code = "int first = 1;\n"
                         "int second = 2;\n";

/// One edit: replace [Begin, End) of Code with Text, tagged Rule.
struct Edit {
  unsigned Begin, End;
  const char *Text;
  const char *Rule;
};

/// Applies \p A, then \p B; prints each outcome, the diagnostics, and the
/// main file the collector would produce. Returns whether \p B was made.
bool run(const Edit &A, const Edit &B, bool &Errors,
         std::optional<std::string> &Result) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> FS(
      new llvm::vfs::InMemoryFileSystem);
  FS->addFile(Path, 0, llvm::MemoryBuffer::getMemBuffer(Code));
  FileManager Files(FileSystemOptions(), FS);
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> Options(new DiagnosticOptions);
  TextDiagnosticPrinter Printer(llvm::outs(), Options.get());
  DiagnosticsEngine Engine(new DiagnosticIDs, Options, &Printer,
                           /*ShouldOwnClient=*/false);
  SourceManager SM(Engine, Files);
  Engine.setSourceManager(&SM);
  FileID Main = SM.createFileID(*Files.getOptionalFileRef(Path),
                                SourceLocation(), SrcMgr::C_User);
  SM.setMainFileID(Main);
  LangOptions Lang;
  Printer.BeginSourceFile(Lang, nullptr);
  RuleDiagnostics Diags(Engine);
  EditCollector Edits(SM, Diags);
  const SourceLocation Start = SM.getLocForStartOfFile(Main);
  auto Make = [&](const Edit &E) {
    const bool Made = Edits.replace(
        CharSourceRange::getCharRange(Start.getLocWithOffset(E.Begin),
                                      Start.getLocWithOffset(E.End)),
        E.Text, E.Rule);
    llvm::outs() << E.Rule << " [" << E.Begin << ", " << E.End << ") -> '"
                 << E.Text << "': " << (Made ? "made" : "refused") << "\n";
    return Made;
  };
  Make(A);
  const bool Made = Make(B);
  Printer.EndSourceFile();
  Errors = Diags.hasErrors();
  Result = Edits.applyToMainFile();
  llvm::outs() << "errors: " << (Errors ? "yes" : "no") << "\n";
  if (Result)
    llvm::outs() << "main file:\n" << *Result;
  llvm::outs().flush();
  return Made;
}

} // namespace

int main(int argc, char **argv) {
  const std::string Case = argc > 1 ? argv[1] : "";
  // "int first = 1;": "first" is [4, 9), "1" [12, 13); "second" [19, 25).
  const Edit First{4, 9, "primero", "hpp-first"};
  bool Errors = false;
  std::optional<std::string> Result;
  if (Case == "overlap")
    return !run(First, {7, 13, "x", "hpp-second"}, Errors, Result) && Errors
               ? 0
               : 1;
  if (Case == "same")
    return !run(First, {4, 9, "premier", "hpp-second"}, Errors, Result) &&
                   Errors
               ? 0
               : 1;
  if (Case == "inside")
    return !run(First, {5, 7, "x", "hpp-second"}, Errors, Result) && Errors ? 0
                                                                            : 1;
  if (Case == "apart")
    return run(First, {19, 25, "segundo", "hpp-second"}, Errors, Result) &&
                   !Errors && Result
               ? 0
               : 1;
  llvm::errs() << "usage: hpp-rewrite-unittests overlap|same|inside|apart\n";
  return 2;
}
