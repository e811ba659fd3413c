//===- DialectPCHTest.cpp - The dialect header parsed once ----------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of what makes a parse with the precompiled dialect header the parse
/// without it (lib/Driver/DialectPCH.h): which sources include the header
/// before anything else, and the `#if` blocks of a header read from a
/// precompiled header, which ConditionalBlocks lexes from its text
/// (lib/Framework/Conditionals.h) instead of hearing them from the
/// preprocessor.
///
//===----------------------------------------------------------------------===//

#include "Driver/DialectPCH.h"
#include "AnalysisTestSupport.h"
#include "Framework/Conditionals.h"
#include "Framework/LineDirectives.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "gtest/gtest.h"

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

std::string leading(llvm::StringRef Source) {
  std::optional<llvm::StringRef> H = leadingDialectInclude(Source);
  return H ? H->str() : std::string("none");
}

TEST(DialectPCHTest, FirstIncludeAfterCommentsAndLineDirectives) {
  EXPECT_EQ(leading("#include <hpp/hpp.h>\n"), "hpp/hpp.h");
  EXPECT_EQ(
      leading("\xEF\xBB\xBF// c\n\n/* a\n b */ # include  <hpp/runtime.h> \n"),
      "hpp/runtime.h");
  // The tool's own output, read again.
  EXPECT_EQ(leading("#line 1 \"/a//b.cpp\" // hpp-rewrite output\n"
                    "#include <hpp/runtime.h>\n"),
            "hpp/runtime.h");
  EXPECT_EQ(leading("#line 7 \"a.cpp\"\n#line 9\n#include <hpp/hpp.h>\n"),
            "hpp/hpp.h");
  EXPECT_EQ(leading("/* a */ /* b */\n#include<hpp/hpp.h>\nint x;\n"),
            "hpp/hpp.h");
}

TEST(DialectPCHTest, AnythingElseFirstMeansAFullParse) {
  for (const char *Source :
       {"#include <cstdio>\n#include <hpp/hpp.h>\n",
        "#define X 1\n#include <hpp/hpp.h>\n",
        "#if 1\n#include <hpp/hpp.h>\n#endif\n", "#include \"hpp/hpp.h\"\n",
        "#include <hpp/hpp.h> /* open\n*/\n",
        "// a comment that goes on \\\n#include <hpp/hpp.h>\n",
        "/* never closed\n#include <hpp/hpp.h>\n",
        "#line 3 \"a\" junk\n#include <hpp/hpp.h>\n",
        "#line 3 \"a\\\"b\"\n#include <hpp/hpp.h>\n",
        "#line 3 \"a\" /* x\n*/\n#include <hpp/hpp.h>\n",
        "#line 3 \"a\" // goes on \\\n#include <hpp/hpp.h>\n",
        "#line 3\"a\"\n#include <hpp/hpp.h>\n", "#include <hpp/hpp.h> \\\n\n",
        "# 3 \"a\"\n#include <hpp/hpp.h>\n", "%:include <hpp/hpp.h>\n",
        "int x;\n#include <hpp/hpp.h>\n", "#include <hpp/hpp.hh>\n", ""})
    EXPECT_EQ(leading(Source), "none") << Source;
}

/// The blocks ConditionalBlocks heard from the preprocessor in \p File,
/// and those it lexes from the file's text.
struct BothBlocks {
  std::vector<std::pair<unsigned, unsigned>> Heard, Lexed;
  std::vector<bool> HeardFirst, LexedFirst;
};

BothBlocks blocksOf(ParsedSource &P, llvm::StringRef File) {
  SourceManager &SM = P.sourceManager();
  const ConditionalBlocks &Blocks = P.lines().conditionals();
  BothBlocks Out;
  auto Offsets = [&](const ConditionalBlocks::Block &B) {
    return std::make_pair(SM.getFileOffset(B.If), SM.getFileOffset(B.Endif));
  };
  FileID FID;
  for (const ConditionalBlocks::AnyBlock &A : Blocks.AllBlocks)
    if (SM.getFilename(A.B.If) == File) {
      FID = SM.getFileID(A.B.If);
      Out.Heard.push_back(Offsets(A.B));
      Out.HeardFirst.push_back(A.FirstOfFile);
    }
  if (FID.isInvalid())
    return Out;
  for (const ConditionalBlocks::AnyBlock &A :
       ConditionalBlocks::lexBlocks(FID, SM, P.langOpts())) {
    Out.Lexed.push_back(Offsets(A.B));
    Out.LexedFirst.push_back(A.FirstOfFile);
  }
  return Out;
}

TEST(DialectPCHTest, LexedBlocksAreThoseThePreprocessorSaw) {
  const char *Header = "#ifndef H_H\n"
                       "#define H_H\n"
                       "#if defined(A) && A > 1\n"
                       "int a;\n"
                       "#elif 1\n"
                       "  #  ifdef B // indented\n"
                       "int b;\n"
                       "#  endif\n"
                       "#endif\n"
                       "/* #if in a comment\n"
                       "#endif */\n"
                       "const char *S = \"#endif\";\n"
                       "#\n"
                       "#ifndef C\n"
                       "int c;\n"
                       "#endif\n"
                       "#endif\n";
  auto P = ParsedSource::parse("#include \"/unit/h.h\"\nint main() {}\n",
                               {{"/unit/h.h", Header}});
  ASSERT_TRUE(P->ok()) << P->diagnostics();
  BothBlocks B = blocksOf(*P, "/unit/h.h");
  ASSERT_EQ(B.Heard.size(), 4u);
  EXPECT_EQ(B.Lexed, B.Heard);
  EXPECT_EQ(B.LexedFirst, B.HeardFirst);
}

TEST(DialectPCHTest, LexedBlocksIncludeThoseOfSkippedBranches) {
  // Never around a declaration of the parse, so harmless to encloses().
  auto P = ParsedSource::parse("#include \"/unit/s.h\"\nint main() {}\n",
                               {{"/unit/s.h", "#if 0\n#ifdef X\n#endif\n"
                                              "#endif\nint s;\n"}});
  ASSERT_TRUE(P->ok()) << P->diagnostics();
  BothBlocks B = blocksOf(*P, "/unit/s.h");
  EXPECT_EQ(B.Heard.size(), 1u);
  EXPECT_EQ(B.Lexed.size(), 2u);
}

/// The location of the variable named \p Name (qualified), or none.
SourceLocation varLocation(ParsedSource &P, llvm::StringRef Name) {
  using namespace clang::ast_matchers;
  // The fixture's traversal scope is the main file's declarations.
  P.context().setTraversalScope({P.context().getTranslationUnitDecl()});
  auto Found = match(varDecl(hasName(Name)).bind("v"), P.context());
  return Found.empty() ? SourceLocation()
                       : Found.front().getNodeAs<VarDecl>("v")->getLocation();
}

TEST(DialectPCHTest, EnclosesSeesTheBlocksOfThePrecompiledHeader) {
  // parseDialect reads <hpp/hpp.h> from a precompiled header, as the tool
  // with --pch-dir does: the header's #if blocks never reached the
  // callbacks. `CompiledMvectorWidth` is chosen by `#if
  // defined(HPP_CPU_MVECTOR)` (include/hpp/cpu/settings.h), a build
  // dependence; `MaxMvectorWidth` is not inside any block but the guard.
  auto P = ParsedSource::parseDialect("int main() { return 0; }\n");
  ASSERT_TRUE(P->ok()) << P->diagnostics();
  SourceManager &SM = P->sourceManager();
  SourceLocation Chosen = varLocation(*P, "::hpp::cpu::CompiledMvectorWidth");
  SourceLocation Plain = varLocation(*P, "::hpp::cpu::MaxMvectorWidth");
  ASSERT_TRUE(Chosen.isValid() && Plain.isValid());
  if (!std::getenv("HPP_UNITTESTS_NO_PCH"))
    EXPECT_TRUE(SM.isLoadedFileID(SM.getFileID(Chosen)));
  const ConditionalBlocks &Blocks = P->lines().conditionals();
  EXPECT_TRUE(Blocks.encloses(Chosen, SM));
  EXPECT_FALSE(Blocks.encloses(Plain, SM));
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
