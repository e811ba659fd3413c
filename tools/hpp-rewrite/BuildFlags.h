//===- BuildFlags.h - The flags of another compiler's compile ---*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rewrite must parse a source as the build compiles it: with the same
/// macros, include paths and language standard. A build step knows the
/// compile's flags, but they are another compiler's (g++, nvcc, hipcc),
/// which clang's parse cannot always take (`--expt-relaxed-constexpr`,
/// `-Xcompiler -fopenmp`, `-gencode arch=...`).
///
///  - `--flags-file=FILE` reads flags one argument a line (no quoting: the
///    line is the argument), as the CMake package writes them at generate
///    time. A line `SHELL:<text>` holds several, split as a POSIX shell
///    splits them (CMake's `SHELL:` compile options).
///  - `--parse-flags-only` keeps, of a compile command, the options that
///    decide what the source means (parseFlagsOnly), in the spellings of
///    gcc, clang, nvcc and hipcc, and drops the others.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_TOOL_BUILDFLAGS_H
#define HPP_REWRITE_TOOL_BUILDFLAGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/StringSaver.h"

#include <string>
#include <vector>

namespace hpp {
namespace tool {

/// The arguments of the flags file \p Path (see the file comment).
llvm::Expected<std::vector<std::string>> readFlagsFile(llvm::StringRef Path);

/// The flags of the `--flags-file` options of \p Args (a command line;
/// those before `--`) appended to it, after a `--` when it has none; with
/// `--parse-flags-only` among those options, the flags after `--` are
/// filtered (parseFlagsOnly) here, before clang's tooling reads them.
/// \p Saver keeps them. \p Found: whether there was a --flags-file.
llvm::Error addFlagsFiles(std::vector<const char *> &Args,
                          llvm::StringSaver &Saver, bool &Found);

/// \p CommandLine (the compiler first, then its arguments) with only the
/// arguments that change how the source parses, in clang's spelling:
///  - macros, include paths and forced includes: -D, -U, -I, -isystem,
///    -iquote, -idirafter, -include, -imacros, -isysroot, --sysroot,
///    -nostdinc, -nostdinc++, -stdlib=, --gcc-toolchain=, --target=, and
///    nvcc's --define-macro, --undefine-macro, --include-path,
///    --system-include, --pre-include;
///  - the language standard: -std=, and nvcc's `-std X` and `--std X`;
///  - options that set predefined macros: -O<level>, -pthread,
///    -f[no-]{exceptions, rtti, fast-math, finite-math-only, math-errno,
///    signed-char, unsigned-char, short-wchar, char8_t, ms-extensions,
///    gnu-keywords, operator-names, sized-deallocation, aligned-new,
///    builtin, freestanding, openmp, PIC, pic, PIE, pie}, -m32, -m64,
///    -march=, -mcpu=, -mtune= and the x86 instruction set options
///    (-m[no-]sse..., -mavx..., -mfma, ...);
///  - positional arguments (the source);
///  - nvcc's host compiler options (-Xcompiler a,b and
///    --compiler-options) are filtered the same way; response files
///    (@file, nvcc's --options-file) are read and filtered.
/// Every other option is dropped, with the value it takes (`-arch
/// sm_90`, `-gencode ...`, `-ccbin ...`, `-Xptxas ...`, `-o ...`, `-x
/// cu`): code generation, warnings, GPU targets, dependency files. A
/// response file that cannot be read is kept, so that the parse fails on
/// it instead of going on without its flags.
std::vector<std::string>
parseFlagsOnly(llvm::ArrayRef<std::string> CommandLine);

} // namespace tool
} // namespace hpp

#endif // HPP_REWRITE_TOOL_BUILDFLAGS_H
