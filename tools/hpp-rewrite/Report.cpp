//===- Report.cpp - The JSON report and the exported fixes ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// See Report.h; the schema is documented in docs/report.md.
///
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace hpp {
namespace tool {

static StringRef status(const FileRun &R) {
  return !R.Ok ? "failed" : R.changed() ? "rewritten" : "unchanged";
}

static json::Object location(StringRef File, unsigned Offset, unsigned Line,
                             unsigned Column) {
  return json::Object{
      {"file", File}, {"offset", Offset}, {"line", Line}, {"column", Column}};
}

static json::Value diagnostic(const rewrite::DiagnosticRecord &D) {
  json::Object O{
      {"severity", D.Severity},
      {"rule", D.Rule.empty() ? json::Value(nullptr) : json::Value(D.Rule)},
      {"message", D.Message}};
  O["location"] =
      D.File.empty()
          ? json::Value(nullptr)
          : json::Value(location(D.File, D.Offset, D.Line, D.Column));
  json::Array Fixes;
  for (const rewrite::DiagnosticRecord::FixIt &F : D.FixIts) {
    json::Object Fix = location(F.File, F.Offset, F.Line, F.Column);
    Fix["length"] = F.Length;
    Fix["text"] = F.Text;
    Fixes.push_back(std::move(Fix));
  }
  O["fixits"] = std::move(Fixes);
  json::Array Notes;
  for (const rewrite::DiagnosticRecord &N : D.Notes)
    Notes.push_back(diagnostic(N));
  O["notes"] = std::move(Notes);
  return O;
}

/// An edit of \p File as the report lists it (docs/report.md).
static json::Object editJson(StringRef File, const rewrite::EditRecord &E) {
  json::Object O = location(File, E.Offset, E.Line, E.Column);
  O["rule"] = E.Rule;
  O["length"] = E.Length;
  O["text"] = E.Text;
  O["moved"] = E.Moved;
  return O;
}

/// The width decisions of a file's kernels (docs/report.md, "kernels").
static json::Array kernelsJson(ArrayRef<rewrite::KernelWidth> Kernels) {
  json::Array Out;
  auto Fact = [](const std::string &F) {
    return F.empty() ? json::Value(nullptr) : json::Value(F);
  };
  for (const rewrite::KernelWidth &K : Kernels)
    Out.push_back(json::Object{{"name", K.Name},
                               {"place", K.Place},
                               {"model", K.Model},
                               {"thirtyTwo", Fact(K.ThirtyTwo)},
                               {"realWidth", Fact(K.RealWidth)},
                               {"joined", K.Joined},
                               {"programNarrowed", K.ProgramNarrowed}});
  return Out;
}

std::string jsonReport(ArrayRef<FileRun> Runs, ArrayRef<std::string> Outputs,
                       bool Written, StringRef Version,
                       ArrayRef<MergedHeader> Headers) {
  unsigned Counts[3] = {0, 0, 0}, Kernels = 0, Warnings = 0, Errors = 0,
           Edits = 0;
  std::map<std::string, unsigned> ByRule;
  json::Array Files;
  for (size_t I = 0; I < Runs.size(); ++I) {
    const FileRun &R = Runs[I];
    StringRef Status = status(R);
    ++Counts[Status == "rewritten" ? 0 : Status == "unchanged" ? 1 : 2];
    Warnings += R.Log.Warnings;
    Errors += R.Log.Errors;
    json::Array FileEdits;
    if (R.Ok) {
      Kernels += R.Output.KernelsOutlined;
      for (const rewrite::EditRecord &E : R.Output.Edits) {
        // A project header's edits are listed once, under "headers".
        if (!E.File.empty() && E.File != R.Output.File)
          continue;
        ++ByRule[E.Rule];
        ++Edits;
        FileEdits.push_back(editJson(R.Path, E));
      }
    }
    json::Array Diags;
    for (const rewrite::DiagnosticRecord &D : R.Log.Diagnostics)
      Diags.push_back(diagnostic(D));
    bool HasOutput =
        Written && R.Ok && I < Outputs.size() && !Outputs[I].empty();
    Files.push_back(json::Object{
        {"source", R.Source},
        {"file", R.Path},
        {"status", Status},
        {"output", HasOutput ? json::Value(absolutePath(Outputs[I]))
                             : json::Value(nullptr)},
        {"kernelsOutlined", R.Ok ? R.Output.KernelsOutlined : 0},
        {"kernels", kernelsJson(R.Output.Kernels)},
        {"warnings", R.Log.Warnings},
        {"errors", R.Log.Errors},
        {"edits", std::move(FileEdits)},
        {"diagnostics", std::move(Diags)}});
  }
  json::Array HeaderList;
  for (const MergedHeader &H : Headers) {
    json::Array HeaderEdits, Units;
    for (const rewrite::EditRecord &E : H.Edits) {
      ++ByRule[E.Rule];
      ++Edits;
      HeaderEdits.push_back(editJson(H.File, E));
    }
    for (size_t Unit : H.Units)
      Units.push_back(Runs[Unit].Source);
    HeaderList.push_back(
        json::Object{{"file", H.File},
                     {"output", Written && !H.Output.empty()
                                    ? json::Value(absolutePath(H.Output))
                                    : json::Value(nullptr)},
                     {"sources", std::move(Units)},
                     {"edits", std::move(HeaderEdits)}});
  }
  json::Object EditsByRule;
  for (const auto &[Rule, Count] : ByRule)
    EditsByRule[Rule] = Count;
  json::Object Report{
      {"schema", ReportSchema},
      {"tool", json::Object{{"name", "hpp-rewrite"}, {"version", Version}}},
      {"written", Written},
      {"summary", json::Object{{"files", Runs.size()},
                               {"rewritten", Counts[0]},
                               {"unchanged", Counts[1]},
                               {"failed", Counts[2]},
                               {"kernelsOutlined", Kernels},
                               {"edits", Edits},
                               {"editsByRule", std::move(EditsByRule)},
                               {"warnings", Warnings},
                               {"errors", Errors}}},
      {"files", std::move(Files)},
      {"headers", std::move(HeaderList)}};
  std::string Text;
  raw_string_ostream OS(Text);
  OS << formatv("{0:2}", json::Value(std::move(Report))) << "\n";
  return Text;
}

std::string exportedFixes(ArrayRef<FileRun> Runs,
                          ArrayRef<MergedHeader> Headers) {
  clang::tooling::TranslationUnitReplacements TU;
  for (const FileRun &R : Runs) {
    if (TU.MainSourceFile.empty())
      TU.MainSourceFile = R.Path;
    if (!R.Ok)
      continue;
    for (const clang::tooling::Replacement &F : R.Output.Fixes)
      TU.Replacements.emplace_back(R.Output.File, F.getOffset(), F.getLength(),
                                   F.getReplacementText());
  }
  // Each project header once, as merged across the units.
  for (const MergedHeader &H : Headers)
    for (const clang::tooling::Replacement &F : H.Fixes)
      TU.Replacements.emplace_back(H.File, F.getOffset(), F.getLength(),
                                   F.getReplacementText());
  std::string Text;
  raw_string_ostream OS(Text);
  yaml::Output YAML(OS);
  YAML << TU;
  OS.flush();
  return Text;
}

void joinReportOption(std::vector<const char *> &Args,
                      std::vector<std::string> &Storage) {
  for (size_t I = 1; I + 1 < Args.size(); ++I) {
    llvm::StringRef A(Args[I]);
    if (A == "--")
      return;
    if ((A == "--report=json" || A == "-report=json") &&
        llvm::StringRef(Args[I + 1]) != "--") {
      Storage.push_back("--report-json=" + std::string(Args[I + 1]));
      Args[I] = Storage.back().c_str();
      Args.erase(Args.begin() + I + 1);
    }
  }
}

} // namespace tool
} // namespace hpp
