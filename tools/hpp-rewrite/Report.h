//===- Report.h - The JSON report and the exported fixes --------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What `--report-json=FILE` and `--export-fixes=FILE` write about a run:
/// the JSON report (schema `hpp-rewrite-report/1`, docs/report.md) lists
/// every edit and every diagnostic of every source; the exported fixes are
/// the YAML of clang::tooling::TranslationUnitReplacements that
/// clang-apply-replacements applies, as clang-tidy writes it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_REWRITE_TOOL_REPORT_H
#define HPP_REWRITE_TOOL_REPORT_H

#include "Project.h"
#include "ProjectHeaders.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace hpp {
namespace tool {

/// The schema name and version the JSON report carries.
inline constexpr const char ReportSchema[] = "hpp-rewrite-report/1";

/// The JSON report of \p Runs (docs/report.md). \p Outputs: where each
/// source's rewrite was written (empty: nowhere); \p Written: whether the
/// outputs were written (false when the run failed). \p Version: the
/// tool's version.
std::string jsonReport(llvm::ArrayRef<FileRun> Runs,
                       llvm::ArrayRef<std::string> Outputs, bool Written,
                       llvm::StringRef Version,
                       llvm::ArrayRef<MergedHeader> Headers = {});

/// The replacements that turn each source of \p Runs into its rewrite, as
/// one YAML document (MainSourceFile: the first source; Replacements: those
/// of every source, by absolute path) that clang-apply-replacements reads.
std::string exportedFixes(llvm::ArrayRef<FileRun> Runs,
                          llvm::ArrayRef<MergedHeader> Headers = {});

/// Rewrites `--report=json FILE` (the spelling of issue 13) in \p Args
/// into `--report-json=FILE` before the options are parsed, as FILE would
/// otherwise be taken for a source; \p Storage keeps the joined strings
/// (reserve it first: Args points into it). Another format, or json
/// without a file, is left for the `report` option, which refuses it.
void joinReportOption(std::vector<const char *> &Args,
                      std::vector<std::string> &Storage);

} // namespace tool
} // namespace hpp

#endif // HPP_REWRITE_TOOL_REPORT_H
