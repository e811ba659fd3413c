//===- LineDirectivesTest.cpp - The output keeps the input's lines --------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of LineDirectives (lib/Framework/LineDirectives.h): where a `#line`
/// directive may go (line starts the preprocessor honours in every build),
/// what it names, and the directives synced() adds to edits so that the
/// output's lines keep the input's numbers.
///
//===----------------------------------------------------------------------===//

#include "Framework/LineDirectives.h"
#include "AnalysisTestSupport.h"

#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

/// The top directive of an output that has any edit (Driver.h: OutputMark).
const char *const Top = "#line 1 \"/unit/input.cpp\" // hpp-rewrite output\n";

class LineDirectivesTest : public ::testing::Test {
protected:
  /// Parses \p Code (plain C++); false (and a failure) when it does not
  /// parse.
  bool parse(llvm::StringRef Code) {
    TU = ParsedSource::parse(Code);
    if (!TU->ok()) {
      ADD_FAILURE() << "the snippet does not parse:\n" << TU->diagnostics();
      return false;
    }
    return true;
  }
  bool canInsertAt(llvm::StringRef LineStart) {
    return TU->lines().canInsertAt(TU->offsetOf(LineStart));
  }
  /// An edit replacing \p Old (its first occurrence) with \p New.
  tooling::Replacement edit(llvm::StringRef Old, llvm::StringRef New) {
    return tooling::Replacement(MainFile, TU->offsetOf(Old), Old.size(), New);
  }
  /// The whole main file with \p Edits and the directives synced() adds;
  /// \p Added gets where those go.
  std::string synced(std::vector<tooling::Replacement> Edits,
                     std::vector<unsigned> *Added = nullptr) {
    tooling::Replacements Rs;
    for (const tooling::Replacement &R : Edits)
      if (llvm::Error E = Rs.add(R)) {
        ADD_FAILURE() << llvm::toString(std::move(E));
        return "";
      }
    tooling::Replacements Out =
        TU->lines().synced(Rs, 0, TU->code().size(), Added);
    llvm::Expected<std::string> Text =
        tooling::applyAllReplacements(TU->code(), Out);
    if (!Text) {
      ADD_FAILURE() << llvm::toString(Text.takeError());
      return "";
    }
    return *Text;
  }

  std::unique_ptr<ParsedSource> TU;
};

// A directive names the line and the file the input gives the place, as
// the preprocessor presumes them (after the input's own `#line`, with the
// file name escaped as a string literal).
TEST_F(LineDirectivesTest, DirectiveNamesThePresumedLineAndFile) {
  ASSERT_TRUE(parse("int a = 1;\n"
                    "int b = 2;\n"
                    "#line 40 \"dir\\\\other.cpp\"\n"
                    "int c = 3;\n"));
  EXPECT_EQ(TU->lines().directiveAt(0), "#line 1 \"/unit/input.cpp\"\n");
  EXPECT_EQ(TU->lines().directiveAt(TU->offsetOf("int b")),
            "#line 2 \"/unit/input.cpp\"\n");
  EXPECT_EQ(TU->lines().directiveAt(TU->offsetOf("int c")),
            "#line 40 \"dir\\\\other.cpp\"\n");
}

TEST_F(LineDirectivesTest, DirectivesGoOnlyAtLineStarts) {
  ASSERT_TRUE(parse("int a = 1;\n"
                    "int b = 2;\n"));
  EXPECT_TRUE(TU->lines().canInsertAt(0));
  EXPECT_TRUE(canInsertAt("int b"));
  EXPECT_FALSE(canInsertAt("= 2"));
  EXPECT_FALSE(TU->lines().canInsertAt(TU->code().size() + 1));
}

// Not on a line that continues the one before it (a backslash-newline).
TEST_F(LineDirectivesTest, NotOnAContinuedLine) {
  ASSERT_TRUE(parse("#define TWO \\\n"
                    "  2\n"
                    "int x = TWO;\n"));
  EXPECT_FALSE(canInsertAt("  2"));
  EXPECT_TRUE(canInsertAt("int x"));
}

// Not inside a comment or a literal that spans lines.
TEST_F(LineDirectivesTest, NotInsideACommentOrLiteralSpanningLines) {
  ASSERT_TRUE(parse("/* a comment\n"
                    "   spanning lines */\n"
                    "const char *s = R\"(raw\n"
                    "string)\";\n"
                    "int y;\n"));
  EXPECT_FALSE(canInsertAt("   spanning"));
  EXPECT_TRUE(canInsertAt("const char"));
  EXPECT_FALSE(canInsertAt("string)"));
  EXPECT_TRUE(canInsertAt("int y"));
}

// Not between the arguments of a macro invocation (recorded while parsing).
TEST_F(LineDirectivesTest, NotInsideMacroArguments) {
  ASSERT_TRUE(parse("#define ADD(a, b) ((a) + (b))\n"
                    "int z = ADD(1,\n"
                    "            2);\n"
                    "int w;\n"));
  EXPECT_TRUE(canInsertAt("int z"));
  EXPECT_FALSE(canInsertAt("            2);"));
  EXPECT_TRUE(canInsertAt("int w"));
}

// Not in a branch the parse skipped (recorded while parsing).
TEST_F(LineDirectivesTest, NotInASkippedBranch) {
  ASSERT_TRUE(parse("#if 0\n"
                    "int skipped;\n"
                    "#endif\n"
                    "int kept;\n"));
  EXPECT_FALSE(canInsertAt("int skipped"));
  EXPECT_TRUE(canInsertAt("int kept"));
}

// No edit, no directive: the output is the input.
TEST_F(LineDirectivesTest, NoEditsNoDirectives) {
  ASSERT_TRUE(parse("int a = 1;\n"));
  std::vector<unsigned> Added;
  EXPECT_EQ(synced({}, &Added), "int a = 1;\n");
  EXPECT_TRUE(Added.empty());
}

// An edit that adds a line: the output names the input at its top, and
// the line after the edit gets its input number back.
TEST_F(LineDirectivesTest, EditThatAddsALineIsFollowedByADirective) {
  ASSERT_TRUE(parse("int a = 1;\n"
                    "int b = 2;\n"
                    "int c = 3;\n"));
  std::vector<unsigned> Added;
  EXPECT_EQ(synced({edit("int b = 2;", "int b = 2;\nint b2 = 2;")}, &Added),
            std::string(Top) + "int a = 1;\n"
                               "int b = 2;\n"
                               "int b2 = 2;\n"
                               "#line 3 \"/unit/input.cpp\"\n"
                               "int c = 3;\n");
  EXPECT_EQ(Added, (std::vector<unsigned>{0, TU->offsetOf("int c")}));
  EXPECT_FALSE(TU->lines().drifts(TU->offsetOf("int a")));
  EXPECT_FALSE(TU->lines().drifts(TU->offsetOf("int c")));
}

// Where the next line cannot take a directive (a macro's arguments), the
// first safe line after it gets it, and the lines between drift.
TEST_F(LineDirectivesTest, DirectiveGoesToTheNextSafeLine) {
  ASSERT_TRUE(parse("#define ADD(a, b) ((a) + (b))\n"
                    "int first = 1;\n"
                    "int s = ADD(first,\n"
                    "            2);\n"
                    "int t;\n"));
  std::vector<unsigned> Added;
  EXPECT_EQ(synced({tooling::Replacement(MainFile, TU->offsetOf("first", 1), 5,
                                         "first\n+ 0")},
                   &Added),
            std::string(Top) + "#define ADD(a, b) ((a) + (b))\n"
                               "int first = 1;\n"
                               "int s = ADD(first\n"
                               "+ 0,\n"
                               "            2);\n"
                               "#line 5 \"/unit/input.cpp\"\n"
                               "int t;\n");
  EXPECT_EQ(Added, (std::vector<unsigned>{0, TU->offsetOf("int t")}));
  EXPECT_TRUE(TU->lines().drifts(TU->offsetOf("2);")));
  EXPECT_FALSE(TU->lines().drifts(TU->offsetOf("int t")));
}

// An edit that takes a line away where the next line cannot take a
// directive ends with the newline it took instead.
TEST_F(LineDirectivesTest, EditThatRemovesALinePadsWithNewlines) {
  ASSERT_TRUE(parse("#define ADD(a, b) ((a) + (b))\n"
                    "int first = 1;\n"
                    "int s = ADD(first\n"
                    "  + 0,\n"
                    "            2);\n"
                    "int t;\n"));
  std::vector<unsigned> Added;
  EXPECT_EQ(synced({tooling::Replacement(MainFile, TU->offsetOf("first\n"), 11,
                                         "first")},
                   &Added),
            std::string(Top) + "#define ADD(a, b) ((a) + (b))\n"
                               "int first = 1;\n"
                               "int s = ADD(first\n"
                               ",\n"
                               "            2);\n"
                               "int t;\n");
  EXPECT_EQ(Added, (std::vector<unsigned>{0}));
}

// A directive inside an `#if` block is followed by one after its `#endif`:
// a build that skips the block skips the directive too.
TEST_F(LineDirectivesTest, DirectiveInAnIfBlockIsRepeatedAfterItsEndif) {
  ASSERT_TRUE(parse("#if 1\n"
                    "int a = 1;\n"
                    "int b = 2;\n"
                    "#endif\n"
                    "int c = 3;\n"));
  std::vector<unsigned> Added;
  EXPECT_EQ(synced({edit("int a = 1;", "int a = 1;\nint a2;")}, &Added),
            std::string(Top) + "#if 1\n"
                               "int a = 1;\n"
                               "int a2;\n"
                               "#line 3 \"/unit/input.cpp\"\n"
                               "int b = 2;\n"
                               "#endif\n"
                               "#line 5 \"/unit/input.cpp\"\n"
                               "int c = 3;\n");
  EXPECT_EQ(Added, (std::vector<unsigned>{0, TU->offsetOf("int b"),
                                          TU->offsetOf("int c")}));
}

// Text an edit replaced drifts, unless it is re-emitted behind a directive
// of its own (an outlined body: cover()).
TEST_F(LineDirectivesTest, ReplacedTextDriftsUnlessCovered) {
  ASSERT_TRUE(parse("int a = 1;\n"
                    "int body = 2;\n"
                    "int c = 3;\n"));
  synced({edit("int body = 2;", "")});
  const unsigned Body = TU->offsetOf("body");
  EXPECT_TRUE(TU->lines().drifts(Body));
  TU->lines().cover(TU->offsetOf("int body"), TU->offsetOf("\nint c"));
  EXPECT_FALSE(TU->lines().drifts(Body));
}

// lastDirective(): what the last `#line` of a text says of the line after
// it: its number, and the newlines after the directive's line.
TEST(LastDirectiveTest, ReadsTheLastDirective) {
  EXPECT_EQ(LineDirectives::lastDirective("int x;\n"), std::nullopt);
  EXPECT_EQ(
      LineDirectives::lastDirective("#line 10 \"a.cpp\"\nint x;\nint y;\n"),
      (std::pair<unsigned, unsigned>{10, 2}));
  // The last one counts; an unfinished line continues in the input.
  EXPECT_EQ(
      LineDirectives::lastDirective("#line 3 \"a\"\nx\n  #  line 7 \"a\"\ny"),
      (std::pair<unsigned, unsigned>{7, 0}));
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
