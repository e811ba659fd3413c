//===- hpp-rewrite/RewriteArguments.h - How sources are parsed --*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The flags hpp-rewrite parses every source with, apart from the driver
/// (Driver.h) so that a program that parses code as the tool does (the unit
/// tests) need not include the rules' headers.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_REWRITEARGUMENTS_H
#define HPP_REWRITE_REWRITEARGUMENTS_H

#include <string>
#include <vector>

namespace hpp {
namespace rewrite {

/// Where the tool finds the headers it parses sources with.
struct HeaderPaths {
  std::string ResourceDir;    ///< clang's builtin headers
  std::string DialectInclude; ///< include/ (hpp/hpp.h)
  std::string RuntimeInclude; ///< runtime/ (hpp/runtime.h)
  /// cuda-decls/: the tool's own declarations of the CUDA headers, which
  /// port mode (`--port`) parses CUDA sources with instead of a CUDA SDK.
  /// Empty outside port mode.
  std::string CudaDecls;
};

/// True when \p Paths parse CUDA sources (`.cu`, `.cuh`) as CUDA: port mode.
inline bool isPortMode(const HeaderPaths &Paths) {
  return !Paths.CudaDecls.empty();
}

/// The flags hpp-rewrite always parses a source with (dialect macro,
/// include paths, C++17, syntax only; in port mode the CUDA front end's
/// host side, with the bundled declarations and no SDK): Leading go before
/// the compile command's own flags (which win over them), Trailing after
/// them.
struct RewriteArguments {
  std::vector<std::string> Leading, Trailing;
};
RewriteArguments rewriteArguments(const HeaderPaths &Paths);

} // namespace rewrite
} // namespace hpp

#endif // HPP_REWRITE_REWRITEARGUMENTS_H
