//===- BuildFlags.cpp - The flags of another compiler's compile -----------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// See BuildFlags.h.
///
//===----------------------------------------------------------------------===//

#include "BuildFlags.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/StringSaver.h"

#include <optional>

using namespace llvm;

namespace hpp {
namespace tool {

/// \p Text split as a POSIX shell (and gcc, for a response file) splits it.
static std::vector<std::string> splitShell(StringRef Text) {
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 16> Args;
  cl::TokenizeGNUCommandLine(Text, Saver, Args);
  return std::vector<std::string>(Args.begin(), Args.end());
}

Expected<std::vector<std::string>> readFlagsFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             "cannot read the flags file '" + Path +
                                 "': " + Buffer.getError().message());
  std::vector<std::string> Args;
  SmallVector<StringRef, 32> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line.consume_back("\r");
    if (Line.empty())
      continue;
    if (Line.consume_front("SHELL:")) {
      for (std::string &A : splitShell(Line))
        Args.push_back(std::move(A));
      continue;
    }
    Args.push_back(Line.str());
  }
  return Args;
}

Error addFlagsFiles(std::vector<const char *> &Args, StringSaver &Saver,
                    bool &Found) {
  std::vector<std::string> Flags;
  size_t Separator = Args.size();
  bool Filter = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I], Path;
    if (A == "--") {
      Separator = I;
      break;
    }
    Filter |= A == "--parse-flags-only" || A == "-parse-flags-only";
    if (A.consume_front("--flags-file=") || A.consume_front("-flags-file="))
      Path = A;
    else if ((A == "--flags-file" || A == "-flags-file") && I + 1 < Args.size())
      Path = Args[I + 1];
    else
      continue;
    Found = true;
    Expected<std::vector<std::string>> Read = readFlagsFile(Path);
    if (!Read)
      return Read.takeError();
    Flags.insert(Flags.end(), Read->begin(), Read->end());
  }
  if (!Found && (!Filter || Separator == Args.size()))
    return Error::success();
  // The flags after `--`, then the files'. Filtered here, before clang's
  // tooling reads them: it would take the values of options it does not
  // know (nvcc's `-std c++20`, `-arch sm_90`) for sources.
  std::vector<std::string> Tail{"clang-tool"};
  for (size_t I = Separator + 1; I < Args.size(); ++I)
    Tail.push_back(Args[I]);
  Tail.insert(Tail.end(), Flags.begin(), Flags.end());
  if (Filter)
    Tail = parseFlagsOnly(Tail);
  Args.resize(std::min(Separator, Args.size()));
  Args.push_back("--");
  for (size_t I = 1; I < Tail.size(); ++I)
    Args.push_back(Saver.save(Tail[I]).data());
  return Error::success();
}

namespace {
/// Options kept, with a value joined (`-DX`, `-std=c++20`) or in the next
/// argument (`-D X`), renamed to clang's spelling.
struct Kept {
  StringRef Name, Clang;
};
const Kept WithValue[] = {
    {"-D", "-D"},
    {"-U", "-U"},
    {"-I", "-I"},
    {"-isystem", "-isystem"},
    {"-iquote", "-iquote"},
    {"-idirafter", "-idirafter"},
    {"-include", "-include"},
    {"-imacros", "-imacros"},
    {"-isysroot", "-isysroot"},
    {"-iprefix", "-iprefix"},
    {"-iwithprefix", "-iwithprefix"},
    {"-iwithprefixbefore", "-iwithprefixbefore"},
    {"--sysroot", "--sysroot="},
    {"-target", "--target="},
    {"--target", "--target="},
    {"--gcc-toolchain", "--gcc-toolchain="},
    {"--gcc-install-dir", "--gcc-install-dir="},
    {"-stdlib", "-stdlib="},
    {"-std", "-std="},
    {"--std", "-std="},
    // nvcc's long names.
    {"--define-macro", "-D"},
    {"--undefine-macro", "-U"},
    {"--include-path", "-I"},
    {"--system-include", "-isystem"},
    {"--pre-include", "-include"},
};

/// Whether \p Word is one of the space-separated words of \p List.
bool listed(StringRef List, StringRef Word) {
  SmallVector<StringRef, 64> Words;
  List.split(Words, ' ', -1, /*KeepEmpty=*/false);
  return llvm::is_contained(Words, Word);
}

/// Kept as they are.
const char Plain[] = "-pthread -nostdinc -nostdinc++ -nostdlibinc -m32 -m64 "
                     "-mx32 -ansi -undef -trigraphs";
const char *const PlainPrefixes[] = {"-O", "-march=", "-mcpu=", "-mtune="};

/// -f[no-]NAME[=...] kept: each changes what the parse sees.
const char FFlags[] =
    "exceptions cxx-exceptions rtti fast-math finite-math-only math-errno "
    "signed-char unsigned-char short-wchar char8_t ms-extensions declspec "
    "gnu-keywords operator-names dollars-in-identifiers sized-deallocation "
    "aligned-new builtin freestanding openmp openmp-simd PIC pic PIE pie";

/// -m[no-]NAME... kept: x86 instruction sets (each defines a macro).
const char *const ISAPrefixes[] = {
    "sse",    "avx", "fma", "f16c",  "bmi",    "popcnt", "lzcnt", "aes",
    "pclmul", "sha", "adx", "rdrnd", "rdseed", "movbe",  "vaes",  "vpclmulqdq",
    "gfni",   "amx", "mmx", "xsave", "crc32",  "cx16",   "sahf",  "prfchw"};

/// Dropped with the value in the next argument: gcc's and clang's output
/// and dependency-file options, and nvcc's that take a value.
const char DroppedWithValue[] =
    "-o -x -MF -MT -MQ -Xclang -Xassembler -Xpreprocessor -Xlinker "
    "-Xcuda-ptxas -Xcuda-fatbinary -mllvm -include-pch -L -l "
    // nvcc's.
    "-ccbin --compiler-bindir -Xptxas --ptxas-options -Xnvlink "
    "--nvlink-options --linker-options -Xarchive --archive-options -Xcudafe "
    "-Xfatbin --fatbin-options -arch --gpu-architecture -code --gpu-code "
    "-gencode --generate-code -maxrregcount --maxrregcount -t --threads -rdc "
    "--relocatable-device-code -diag-suppress --diag-suppress -diag-error "
    "--diag-error -diag-warn --diag-warn -keep-dir --keep-dir -odir "
    "--output-directory -default-stream --default-stream -cudart --cudart "
    "-cudadevrt --cudadevrt -dopt --dopt -split-compile --split-compile "
    "--library --library-path -ewp --extensible-whole-program";

/// nvcc's `-Werror <kind>,...` kinds (gcc's -Werror takes none).
const char NvccWerrorKinds[] =
    "all-warnings cross-execution-space-call reorder default-stream-launch "
    "missing-launch-bounds ext-lambda-captures-this deprecated-declarations";

bool keptFFlag(StringRef A) {
  if (!A.consume_front("-f"))
    return false;
  A.consume_front("no-");
  return listed(FFlags, A.split('=').first);
}

bool keptMFlag(StringRef A) {
  if (!A.consume_front("-m"))
    return false;
  A.consume_front("no-");
  return llvm::any_of(ISAPrefixes,
                      [&](StringRef P) { return A.starts_with(P); });
}

bool isNvccWerrorValue(StringRef V) {
  SmallVector<StringRef, 4> Kinds;
  V.split(Kinds, ',');
  return llvm::all_of(Kinds,
                      [](StringRef K) { return listed(NvccWerrorKinds, K); });
}

/// The filter of one command line, response files and nvcc's host
/// compiler options read as they come.
class Filter {
public:
  std::vector<std::string> Out;

  /// Filters \p Args; \p Positional: keep arguments that are no option
  /// (the source; not within nvcc's host compiler options).
  void run(ArrayRef<std::string> Args, bool Positional, unsigned Depth) {
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      auto Next = [&]() -> std::optional<StringRef> {
        if (I + 1 < Args.size())
          return StringRef(Args[++I]);
        return std::nullopt;
      };
      if (A == "--") { // The rest are sources.
        Out.insert(Out.end(), Args.begin() + I, Args.end());
        return;
      }
      if (A.starts_with("@") && A.size() > 1) {
        if (!responseFile(A.drop_front(), Positional, Depth))
          Out.push_back(A.str()); // The parse reports what it cannot read.
        continue;
      }
      if (A == "-optf" || A == "--options-file" ||
          A.starts_with("--options-file=") || A.starts_with("-optf=")) {
        std::string Spelled = A.str();
        StringRef File = A.contains('=') ? A.split('=').second : "";
        if (File.empty())
          if (std::optional<StringRef> V = Next()) {
            File = *V;
            Spelled += " " + V->str();
          }
        if (File.empty() || !responseFile(File, Positional, Depth))
          for (StringRef S : splitShellWords(Spelled))
            Out.push_back(S.str());
        continue;
      }
      if (!A.starts_with("-") || A == "-") {
        if (Positional)
          Out.push_back(A.str());
        continue;
      }
      if (listed(DroppedWithValue, A)) {
        Next();
        continue;
      }
      if (hostOptions(A, Next, Depth) || withValue(A, Next))
        continue;
      if (listed(Plain, A) ||
          llvm::any_of(PlainPrefixes,
                       [&](StringRef P) { return A.starts_with(P); }) ||
          keptFFlag(A) || keptMFlag(A)) {
        Out.push_back(A.str());
        continue;
      }
      if (A == "-Werror" && I + 1 < Args.size() &&
          isNvccWerrorValue(Args[I + 1]))
        ++I;
      // Every other option is dropped; a joined value goes with it.
    }
  }

private:
  static std::vector<StringRef> splitShellWords(StringRef S) {
    SmallVector<StringRef, 2> Parts;
    S.split(Parts, ' ');
    return std::vector<StringRef>(Parts.begin(), Parts.end());
  }

  /// Reads and filters the response file \p Path; false when it cannot be
  /// read (or they nest too deep).
  bool responseFile(StringRef Path, bool Positional, unsigned Depth) {
    if (Depth >= 8)
      return false;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer)
      return false;
    run(splitShell((*Buffer)->getBuffer()), Positional, Depth + 1);
    return true;
  }

  /// nvcc's -Xcompiler/--compiler-options: host compiler options,
  /// comma-separated, filtered as options of their own.
  template <typename NextFn>
  bool hostOptions(StringRef A, NextFn &Next, unsigned Depth) {
    for (StringRef Name : {"-Xcompiler", "--compiler-options"}) {
      StringRef Value;
      if (A == Name) {
        std::optional<StringRef> V = Next();
        if (!V)
          return true;
        Value = *V;
      } else if (A.starts_with(Name) &&
                 A.substr(Name.size()).starts_with("=")) {
        Value = A.substr(Name.size() + 1);
      } else {
        continue;
      }
      SmallVector<StringRef, 8> Parts;
      Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
      std::vector<std::string> Host(Parts.begin(), Parts.end());
      if (Depth < 8)
        run(Host, /*Positional=*/false, Depth + 1);
      return true;
    }
    return false;
  }

  /// The options of WithValue, renamed; true when \p A is one.
  template <typename NextFn> bool withValue(StringRef A, NextFn &Next) {
    const Kept *Best = nullptr;
    for (const Kept &K : WithValue)
      if (A.starts_with(K.Name) && (!Best || K.Name.size() > Best->Name.size()))
        Best = &K;
    if (!Best)
      return false;
    StringRef Rest = A.substr(Best->Name.size());
    const bool Long = Best->Name.starts_with("--") || Best->Name == "-target" ||
                      Best->Name == "-std" || Best->Name == "-stdlib";
    if (Long) {
      // A long option takes `=value` or the next argument, never a value
      // joined without `=` (-stdlibx is not -stdlib).
      if (!Rest.empty() && !Rest.starts_with("="))
        return false;
      Rest.consume_front("=");
    }
    if (!Rest.empty() || A.ends_with("=")) {
      Out.push_back((Best->Clang + Rest).str());
      return true;
    }
    std::optional<StringRef> V = Next();
    if (!V)
      return true; // A value that is not there: nothing to keep.
    if (Best->Clang.ends_with("=")) {
      Out.push_back((Best->Clang + *V).str());
    } else {
      Out.push_back(Best->Clang.str());
      Out.push_back(V->str());
    }
    return true;
  }
};
} // namespace

std::vector<std::string> parseFlagsOnly(ArrayRef<std::string> CommandLine) {
  if (CommandLine.empty())
    return {};
  Filter F;
  F.Out.push_back(CommandLine.front());
  F.run(CommandLine.drop_front(), /*Positional=*/true, 0);
  return std::move(F.Out);
}

} // namespace tool
} // namespace hpp
