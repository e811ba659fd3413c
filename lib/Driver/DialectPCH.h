//===- DialectPCH.h - The dialect header parsed once ------------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A rewrite spends most of its time parsing the dialect header
/// (`<hpp/hpp.h>`, or `<hpp/runtime.h>` for an output read again), the same
/// header with the same flags for every source. With a cache directory set
/// (setPrecompiledHeaderDir, hpp-rewrite/Driver.h), a source that includes
/// it before anything else is parsed with it precompiled: the translation
/// unit is the one a full parse makes, read from the precompiled header.
///
/// Port mode's CUDA sources are parsed the same way with the tool's CUDA
/// declarations precompiled: the command's `-include cuda_runtime.h` (as
/// nvcc makes every .cu source include it) becomes the precompiled header.
///
/// A precompiled header is used only where that cannot change the parse:
///  - the command includes exactly one file first, port mode's
///    `-include cuda_runtime.h` (a stub that includes it by that name finds
///    the same file, unless the working directory, which `-include`
///    searches first, holds one: then not; the command keeps its
///    `-include`, which the declarations' include guard makes empty), and
///    nothing else (`-imacros`, a precompiled header of its own); or it
///    includes nothing first and the source's first line that is not
///    blank, a comment or a `#line` directive is `#include <hpp/hpp.h>` or
///    `#include <hpp/runtime.h>`;
///  - it compiles C++ or CUDA;
///  - the header was precompiled with exactly this command's options (the
///    cc1 options, all but the input: macros, search paths, language,
///    target; the working directory too where one of them is a relative
///    path), by this clang;
///  - no file it was built from has changed since (each file's size and
///    time, checked before every use; clang checks them again as it reads);
///  - precompiling it printed nothing (no warning, no error).
/// Otherwise the source is parsed in full. A header is precompiled the
/// second time a set of options asks for it (a one-off command is not
/// worth the build), in the process that asks, under a lock file that
/// other processes wait for; it is written under a new name, and a stamp
/// names it once it is complete.
///
/// The templates the header itself instantiates are instantiated once, in
/// the precompiled header (as `-fpch-instantiate-templates` does): their
/// point of instantiation may be the end of the translation unit either
/// way, and a well-formed program means the same at both (a rewrite took
/// 0.55 s without it, 0.33 s with it; the outputs are identical).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_DRIVER_DIALECTPCH_H
#define HPP_REWRITE_DRIVER_DIALECTPCH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class CompilerInvocation;
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace hpp {
namespace rewrite {

/// The dialect header that \p Source includes before anything else
/// (`hpp/hpp.h` or `hpp/runtime.h`), after blank lines, comments and
/// `#line` directives only; none otherwise.
std::optional<llvm::StringRef> leadingDialectInclude(llvm::StringRef Source);

/// Points \p Invocation at a precompiled copy of the dialect header its
/// main file includes first, building it when this is the second request
/// for these options, as the file comment says; leaves \p Invocation as it
/// is when the source must be parsed in full or no cache is set. With
/// HPP_REWRITE_PCH_EXPLAIN=1 in the environment, says on \p Explain which
/// it was and why.
void usePrecompiledDialect(
    clang::CompilerInvocation &Invocation, clang::FileManager &Files,
    std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
    llvm::raw_ostream &Explain);

/// The files the precompiled header that \p CI read was built from (none
/// without one): a parse with it reads only those it needs, and a depfile
/// names them all.
std::vector<std::string> precompiledInputs(clang::CompilerInstance &CI);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_DRIVER_DIALECTPCH_H
