//===- EditCollectorTest.cpp - Per-file replacements ----------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of EditCollector (lib/include/hpp-rewrite/EditCollector.h). Edits of
/// two rules on one range, which no input makes the tool's rules produce
/// today (a rule that moves text carries the edits inside it along:
/// extract()), are a located error tagged with the second rule, with a
/// note at the first rule's edit; the edit is not made, and the error
/// makes the driver write nothing (bad-input.test). Edits that do not meet
/// are both made; so are edits that tooling::Replacements finds
/// order-independent. Edits in macro expansions and outside the main file
/// are refused; the result keeps the file's line endings.
///
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/EditCollector.h"
#include "AnalysisTestSupport.h"
#include "Framework/LineDirectives.h"
#include "Framework/RewriteScope.h"

#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

// "int first = 1;": "first" is [4, 9), "1" [12, 13); "second" [19, 25).
const char *const Code = "int first = 1;\n"
                         "int second = 2;\n";

class EditCollectorTest : public ::testing::Test {
protected:
  /// Parses \p Source (plain C++) with \p Files and starts a collector on
  /// it; false (and a failure) when it does not parse.
  bool parse(llvm::StringRef Source,
             llvm::ArrayRef<std::pair<std::string, std::string>> Files = {}) {
    Edits.reset();
    Diags.reset();
    TU = ParsedSource::parse(Source, Files);
    if (!TU->ok()) {
      ADD_FAILURE() << "the snippet does not parse:\n" << TU->diagnostics();
      return false;
    }
    Diags = std::make_unique<RuleDiagnostics>(TU->diagnosticsEngine());
    Edits = std::make_unique<EditCollector>(TU->sourceManager(), *Diags);
    return true;
  }

  /// The main file's location at \p Offset.
  SourceLocation at(unsigned Offset) {
    const SourceManager &SM = TU->sourceManager();
    return SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Offset);
  }
  /// Replaces [\p Begin, \p End) of the main file with \p Text for \p Rule.
  bool replace(unsigned Begin, unsigned End, llvm::StringRef Text,
               llvm::StringRef Rule) {
    return Edits->replace(CharSourceRange::getCharRange(at(Begin), at(End)),
                          Text, Rule);
  }
  /// The first rule's edit: "first" becomes "primero".
  bool first() { return replace(4, 9, "primero", "hpp-first"); }

  /// The diagnostics printed so far.
  std::string printed() { return TU->diagnostics(); }

  std::unique_ptr<ParsedSource> TU;
  std::unique_ptr<RuleDiagnostics> Diags;
  std::unique_ptr<EditCollector> Edits;
};

/// The message of a collision with an edit of 'hpp-first', at \p Where.
std::string collision(llvm::StringRef Where) {
  return ("/unit/input.cpp:" + Where +
          ": error: internal error: this edit collides with an edit of "
          "'hpp-first'; the file is not rewritten (please report this, with "
          "the input) [hpp-second]")
      .str();
}
/// The note at the first rule's edit.
const char *const FirstNote =
    "/unit/input.cpp:1:5: note: the edit of 'hpp-first' (5 bytes replaced) "
    "is here";

TEST_F(EditCollectorTest, OverlappingEditIsRefusedWithALocatedError) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(first());
  EXPECT_FALSE(replace(7, 13, "x", "hpp-second"));
  EXPECT_TRUE(Diags->hasErrors());
  const std::string Printed = printed();
  const size_t Error = Printed.find(collision("1:8"));
  const size_t Note = Printed.find(FirstNote);
  EXPECT_NE(Error, std::string::npos) << Printed;
  EXPECT_NE(Note, std::string::npos) << Printed;
  EXPECT_LT(Error, Note);
  // The refused edit is not made; the first one stands.
  EXPECT_EQ(Edits->size(), 1u);
  EXPECT_EQ(Edits->applyToMainFile(), "int primero = 1;\nint second = 2;\n");
}

TEST_F(EditCollectorTest, SecondReplacementOfARangeIsRefused) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(first());
  EXPECT_FALSE(replace(4, 9, "premier", "hpp-second"));
  EXPECT_TRUE(Diags->hasErrors());
  EXPECT_NE(printed().find(collision("1:5")), std::string::npos) << printed();
  EXPECT_NE(printed().find(FirstNote), std::string::npos) << printed();
}

TEST_F(EditCollectorTest, EditInsideAnotherIsRefused) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(first());
  EXPECT_FALSE(replace(5, 7, "x", "hpp-second"));
  EXPECT_TRUE(Diags->hasErrors());
  EXPECT_NE(printed().find(collision("1:6")), std::string::npos) << printed();
  EXPECT_NE(printed().find(FirstNote), std::string::npos) << printed();
}

TEST_F(EditCollectorTest, EditsApartAreBothMade) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(first());
  EXPECT_TRUE(replace(19, 25, "segundo", "hpp-second"));
  EXPECT_FALSE(Diags->hasErrors());
  EXPECT_EQ(printed(), "");
  EXPECT_EQ(Edits->size(), 2u);
  EXPECT_EQ(Edits->applyToMainFile(), "int primero = 1;\nint segundo = 2;\n");
}

// Two rules making the same edit agree: tooling::Replacements takes an
// identical replacement as order-independent, applied once. Each rule's
// edit is recorded.
TEST_F(EditCollectorTest, IdenticalEditsAreMadeOnce) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(first());
  EXPECT_TRUE(replace(4, 9, "primero", "hpp-second"));
  EXPECT_FALSE(Diags->hasErrors());
  EXPECT_EQ(Edits->applyToMainFile(), "int primero = 1;\nint second = 2;\n");
  ASSERT_EQ(Edits->records().size(), 2u);
  EXPECT_EQ(Edits->records()[1].Rule, "hpp-second");
}

// Insertions at one point are order-dependent unless either order gives
// the same text: different texts collide; equal texts are both inserted
// (tooling::Replacements: X + Y = Y + X).
TEST_F(EditCollectorTest, InsertionsAtOnePoint) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(Edits->insert(at(0), "static ", "hpp-first"));
  EXPECT_FALSE(Edits->insert(at(0), "const ", "hpp-second"));
  EXPECT_TRUE(Diags->hasErrors());
  EXPECT_NE(printed().find("/unit/input.cpp:1:1: error: internal error: this "
                           "edit collides with an edit of 'hpp-first'"),
            std::string::npos)
      << printed();

  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(Edits->insert(at(15), "static ", "hpp-first"));
  EXPECT_TRUE(Edits->insert(at(15), "static ", "hpp-second"));
  EXPECT_FALSE(Diags->hasErrors());
  EXPECT_EQ(Edits->applyToMainFile(),
            "int first = 1;\nstatic static int second = 2;\n");
}

// Code of a macro expansion is left as written, with a warning at the
// expansion (no error: the rest of the file is rewritten).
TEST_F(EditCollectorTest, EditInAMacroExpansionIsLeftWithAWarning) {
  ASSERT_TRUE(parse("#define ONE 1\n"
                    "int x = ONE;\n"));
  const Expr *Init = TU->variable("x")->getInit();
  ASSERT_TRUE(Init->getBeginLoc().isMacroID());
  EXPECT_FALSE(
      Edits->replace(CharSourceRange::getTokenRange(Init->getSourceRange()),
                     "2", "hpp-first"));
  EXPECT_FALSE(Diags->hasErrors());
  EXPECT_NE(printed().find("/unit/input.cpp:2:9: warning: code inside a macro "
                           "expansion is left unchanged [hpp-first]"),
            std::string::npos)
      << printed();
  EXPECT_EQ(Edits->size(), 0u);
}

// A header the user wrote is not rewritten: an error, once per header.
TEST_F(EditCollectorTest, EditInAHeaderIsRefusedOncePerHeader) {
  ASSERT_TRUE(parse("#include \"helper.h\"\n"
                    "int x = helper + other;\n",
                    {{"/unit/helper.h", "int helper = 1;\n"
                                        "int other = 2;\n"}}));
  // Where the variable that the main file's \p Nth \p Name names is.
  auto DeclOf = [&](llvm::StringRef Name, unsigned Nth) {
    const Expr *E = TU->exprAt(Name, Nth);
    const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreImplicit()) : nullptr;
    if (!DRE) {
      ADD_FAILURE() << "no reference '" << Name.str() << "'";
      return SourceLocation();
    }
    return DRE->getDecl()->getLocation();
  };
  const SourceLocation Helper = DeclOf("helper", 1), Other = DeclOf("other", 0);
  ASSERT_TRUE(Helper.isValid() && Other.isValid());
  EXPECT_FALSE(Edits->replace(CharSourceRange::getTokenRange(Helper, Helper),
                              "h", "hpp-first"));
  EXPECT_FALSE(Edits->replace(CharSourceRange::getTokenRange(Other, Other), "o",
                              "hpp-second"));
  EXPECT_TRUE(Diags->hasErrors());
  const std::string Printed = printed();
  const std::string Refusal =
      "/unit/helper.h:1:5: error: cannot rewrite code in 'helper.h': "
      "hpp-rewrite rewrites only the file it is given; move the dialect code "
      "of this header into that file [hpp-first]";
  const size_t At = Printed.find(Refusal);
  EXPECT_NE(At, std::string::npos) << Printed;
  EXPECT_EQ(Printed.find("cannot rewrite code", At + Refusal.size()),
            std::string::npos)
      << Printed;
  EXPECT_EQ(Edits->size(), 0u);
}

// Under a project root, the header is a project header: its edits are
// made, and applyToHeaders returns it rewritten under its first line.
TEST_F(EditCollectorTest, EditInAProjectHeaderIsMade) {
  ASSERT_TRUE(parse("#include \"helper.h\"\n"
                    "int x = helper;\n",
                    {{"/unit/helper.h", "int helper = 1;\n"}}));
  RewriteScope Scope(TU->sourceManager(), "/unit");
  const Expr *Ref = TU->exprAt("helper", 1);
  ASSERT_NE(Ref, nullptr);
  const SourceLocation Helper =
      cast<DeclRefExpr>(Ref->IgnoreImplicit())->getDecl()->getLocation();
  EXPECT_TRUE(Scope.isProjectHeader(TU->sourceManager().getFileID(Helper)));
  EXPECT_TRUE(Edits->replace(CharSourceRange::getTokenRange(Helper, Helper),
                             "renamed", "hpp-first"));
  EXPECT_FALSE(Diags->hasErrors()) << printed();
  std::optional<std::vector<RewrittenHeader>> Headers =
      Edits->applyToHeaders("hpp-lines");
  ASSERT_TRUE(Headers.has_value());
  ASSERT_EQ(Headers->size(), 1u);
  EXPECT_EQ((*Headers)[0].File, "/unit/helper.h");
  EXPECT_EQ((*Headers)[0].Text,
            "#line 1 \"/unit/helper.h\" // hpp-rewrite output\n"
            "int renamed = 1;\n");
  ASSERT_EQ((*Headers)[0].Edits.size(), 1u);
  EXPECT_EQ((*Headers)[0].Edits[0].getOffset(), 4u);
  // The main file is not changed by it.
  EXPECT_EQ(Edits->applyToMainFile(), std::string("#include \"helper.h\"\n"
                                                  "int x = helper;\n"));
}

// Outside the root the header is refused, with the root named.
TEST_F(EditCollectorTest, EditOutsideTheRootNamesTheRoot) {
  ASSERT_TRUE(parse("#include \"/other/helper.h\"\n"
                    "int x = helper;\n",
                    {{"/other/helper.h", "int helper = 1;\n"}}));
  RewriteScope Scope(TU->sourceManager(), "/unit");
  const Expr *Ref = TU->exprAt("helper", 1);
  ASSERT_NE(Ref, nullptr);
  const SourceLocation Helper =
      cast<DeclRefExpr>(Ref->IgnoreImplicit())->getDecl()->getLocation();
  EXPECT_FALSE(Edits->replace(CharSourceRange::getTokenRange(Helper, Helper),
                              "h", "hpp-first"));
  EXPECT_NE(printed().find("error: cannot rewrite code in 'helper.h': it lies "
                           "outside the project root '/unit'"),
            std::string::npos)
      << printed();
}

// A header keeps its line numbers: after an edit that changes the number
// of lines, a `#line` directive starts the next line; text inserted at a
// line start ends with one. Where the rest of the line could not be
// followed by one (a comment opens there), it is an internal error.
TEST_F(EditCollectorTest, HeaderEditThatChangesLinesGetsALineDirective) {
  ASSERT_TRUE(parse("#include \"helper.h\"\n"
                    "int x = helper + other;\n",
                    {{"/unit/helper.h", "int helper = 1;\n"
                                        "int other = 2; /* two\n"
                                        "lines */\n"}}));
  RewriteScope Scope(TU->sourceManager(), "/unit");
  auto DeclOf = [&](llvm::StringRef Name, unsigned Nth) {
    const Expr *E = TU->exprAt(Name, Nth);
    return E ? cast<DeclRefExpr>(E->IgnoreImplicit())->getDecl()->getLocation()
             : SourceLocation();
  };
  const SourceLocation Helper = DeclOf("helper", 1), Other = DeclOf("other", 0);
  ASSERT_TRUE(Helper.isValid() && Other.isValid());
  EXPECT_TRUE(Edits->replace(CharSourceRange::getTokenRange(Helper, Helper),
                             "\nrenamed", "hpp-first"));
  EXPECT_TRUE(Edits->insert(Helper.getLocWithOffset(-4), "// one\n// two",
                            "hpp-second"));
  std::optional<std::vector<RewrittenHeader>> Headers =
      Edits->applyToHeaders("hpp-lines");
  ASSERT_TRUE(Headers.has_value()) << printed();
  EXPECT_EQ((*Headers)[0].Text,
            "#line 1 \"/unit/helper.h\" // hpp-rewrite output\n"
            "// one\n// two\n#line 1 \"/unit/helper.h\"\n"
            "int \nrenamed = 1;\n"
            "#line 2 \"/unit/helper.h\"\n"
            "int other = 2; /* two\n"
            "lines */\n");
  // `other` is followed by a comment that spans lines: no directive fits.
  EXPECT_TRUE(Edits->replace(CharSourceRange::getTokenRange(Other, Other),
                             "\nother", "hpp-first"));
  EXPECT_FALSE(Edits->applyToHeaders("hpp-lines").has_value());
  EXPECT_NE(printed().find("this edit of a project header changes its number "
                           "of lines, and the rest of the line cannot be "
                           "followed by a '#line' directive"),
            std::string::npos)
      << printed();
}

// System headers (the dialect's, the C++ library's) need no rewrite: the
// edit is refused without a word.
TEST_F(EditCollectorTest, EditInASystemHeaderIsRefusedSilently) {
  ASSERT_TRUE(parse("#include \"system.h\"\n"
                    "int x = lib;\n",
                    {{"/unit/system.h", "#pragma GCC system_header\n"
                                        "int lib = 1;\n"}}));
  const Expr *Ref = TU->exprAt("lib");
  ASSERT_NE(Ref, nullptr);
  const SourceLocation Lib =
      cast<DeclRefExpr>(Ref->IgnoreImplicit())->getDecl()->getLocation();
  ASSERT_TRUE(TU->sourceManager().isInSystemHeader(Lib));
  EXPECT_FALSE(Edits->replace(CharSourceRange::getTokenRange(Lib, Lib), "l",
                              "hpp-first"));
  EXPECT_FALSE(Diags->hasErrors());
  EXPECT_EQ(printed(), "");
}

// A rule that moves text elsewhere takes the edits inside it along, with
// offsets from the moved text's start; they are then no longer applied in
// place, and their records say they moved.
TEST_F(EditCollectorTest, ExtractTakesTheEditsInsideARange) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(first());
  EXPECT_TRUE(replace(19, 25, "segundo", "hpp-second"));
  // Line 1, "int first = 1;": [0, 14).
  tooling::Replacements Inside =
      Edits->extract(CharSourceRange::getCharRange(at(0), at(14)));
  ASSERT_EQ(Inside.size(), 1u);
  EXPECT_EQ(Inside.begin()->getOffset(), 4u);
  EXPECT_EQ(Inside.begin()->getLength(), 5u);
  EXPECT_EQ(Inside.begin()->getReplacementText(), "primero");
  ASSERT_EQ(Edits->records().size(), 2u);
  EXPECT_TRUE(Edits->records()[0].Moved);
  EXPECT_FALSE(Edits->records()[1].Moved);
  EXPECT_EQ(Edits->applyToMainFile(), "int first = 1;\nint segundo = 2;\n");
}

// A file with CRLF line endings keeps them on every line, the inserted
// ones too, and the fixes reproduce the result byte for byte.
TEST_F(EditCollectorTest, CRLFFileKeepsItsLineEndings) {
  ASSERT_TRUE(parse("int first = 1;\r\n"
                    "int second = 2;\r\n"));
  EXPECT_TRUE(replace(4, 9, "a = 0;\nint b", "hpp-first"));
  std::optional<std::string> Result = Edits->applyToMainFile();
  ASSERT_TRUE(Result);
  EXPECT_EQ(*Result, "int a = 0;\r\nint b = 1;\r\nint second = 2;\r\n");
  tooling::Replacements Fixes;
  for (const tooling::Replacement &R : Edits->mainFileFixes(*Result))
    if (llvm::Error E = Fixes.add(R))
      ADD_FAILURE() << llvm::toString(std::move(E));
  llvm::Expected<std::string> Fixed =
      tooling::applyAllReplacements(TU->code(), Fixes);
  ASSERT_TRUE(bool(Fixed)) << llvm::toString(Fixed.takeError());
  EXPECT_EQ(*Fixed, *Result);
}

// The `#line` directives that keep the output's numbers are edits of
// their own rule, recorded after the rules' edits, at the start of a line.
TEST_F(EditCollectorTest, SyncLinesRecordsTheDirectives) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(replace(4, 9, "a = 0;\nint b", "hpp-first"));
  Edits->syncLines(TU->lines(), "hpp-source-position");
  const std::vector<EditRecord> &Records = Edits->records();
  ASSERT_EQ(Records.size(), 3u);
  EXPECT_EQ(Records[0].Rule, "hpp-first");
  EXPECT_EQ(Records[0].Offset, 4u);
  EXPECT_EQ(Records[0].Length, 5u);
  EXPECT_EQ(Records[0].Line, 1u);
  EXPECT_EQ(Records[0].Column, 5u);
  EXPECT_EQ(Records[1].Rule, "hpp-source-position");
  EXPECT_EQ(Records[1].Offset, 0u);
  EXPECT_EQ(Records[1].Line, 1u);
  EXPECT_EQ(Records[1].Column, 1u);
  EXPECT_EQ(Records[2].Rule, "hpp-source-position");
  EXPECT_EQ(Records[2].Offset, 15u);
  EXPECT_EQ(Records[2].Line, 2u);
  EXPECT_EQ(Records[2].Column, 1u);
  EXPECT_EQ(Records[2].Text, "#line 2 \"/unit/input.cpp\"\n");
  EXPECT_EQ(Edits->applyToMainFile(),
            "#line 1 \"/unit/input.cpp\" // hpp-rewrite output\n"
            "int a = 0;\n"
            "int b = 1;\n"
            "#line 2 \"/unit/input.cpp\"\n"
            "int second = 2;\n");
}

// An EditRecord's Text is the text inserted: for the directive at the top
// of the output, with the mark the output's first line has (OutputMark).
TEST_F(EditCollectorTest, TopDirectiveRecordIsTheTextInserted) {
  ASSERT_TRUE(parse(Code));
  EXPECT_TRUE(replace(4, 9, "primero", "hpp-first"));
  Edits->syncLines(TU->lines(), "hpp-source-position");
  ASSERT_EQ(Edits->records().size(), 2u);
  EXPECT_EQ(Edits->records()[1].Text,
            "#line 1 \"/unit/input.cpp\" // hpp-rewrite output\n");
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
