//===- SuppressionsTest.cpp - Unit tests for NOLINT comments --------------===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#include "Suppressions.h"

#include "gtest/gtest.h"

#include <string>

using namespace roofline;

namespace {

constexpr const char *Bank = "roofline-bank-conflict";
constexpr const char *Reuse = "roofline-global-reuse";
constexpr const char *Uncoalesced = "roofline-uncoalesced-access";
constexpr const char *Other = "bugprone-foo";

const char *const UnmatchedBegin = "unmatched 'NOLINTBEGIN' comment without a "
                                   "subsequent 'NOLINTEND' comment";
const char *const UnmatchedEnd = "unmatched 'NOLINTEND' comment without a "
                                 "previous 'NOLINTBEGIN' comment";

/// Lines of Text suppressed for Check, from 1 to Last.
std::string suppressedLines(const Suppressions &S, llvm::StringRef Check,
                            unsigned Last) {
  std::string Out;
  for (unsigned L = 1; L <= Last; ++L)
    if (S.suppresses(L, Check))
      Out += (Out.empty() ? "" : ",") + std::to_string(L);
  return Out;
}

/// One error as errorsToString() prints it.
std::string err(unsigned Line, unsigned Column, const char *Message) {
  return std::to_string(Line) + ":" + std::to_string(Column) + ": " + Message +
         "\n";
}

std::string errorsToString(const Suppressions &S) {
  std::string Out;
  for (const SuppressionError &E : S.errors())
    Out += err(E.Line, E.Column, E.Message.c_str());
  return Out;
}

TEST(SuppressionsTest, NoLintOnTheSameLine) {
  Suppressions S = Suppressions::parse("a();\n"
                                       "b(); // NOLINT\n"
                                       "c();\n"
                                       "d(); /* NOLINT */ e();\n");
  EXPECT_EQ(suppressedLines(S, Bank, 5), "2,4");
  EXPECT_EQ(suppressedLines(S, Other, 5), "2,4");
  EXPECT_TRUE(S.errors().empty());
}

TEST(SuppressionsTest, NoLintWithCheckList) {
  Suppressions S = Suppressions::parse(
      "x; // NOLINT(roofline-bank-conflict)\n"
      "x; // NOLINT(roofline-*)\n"
      "x; // NOLINT(roofline-bank-conflict, roofline-global-reuse)\n"
      "x; // NOLINT( roofline-global-reuse ,roofline-bank-conflict )\n"
      "x; // NOLINT(*)\n"
      "x; // NOLINT(roofline-bank-conflict): the tile is padded\n");
  EXPECT_EQ(suppressedLines(S, Bank, 7), "1,2,3,4,5,6");
  EXPECT_EQ(suppressedLines(S, Reuse, 7), "2,3,4,5");
  EXPECT_EQ(suppressedLines(S, Uncoalesced, 7), "2,5");
  EXPECT_EQ(suppressedLines(S, Other, 7), "5");
}

TEST(SuppressionsTest, CheckListMustFollowTheKeywordImmediately) {
  // With a space the parentheses are ordinary comment text and the comment
  // applies to every check, as in clang-tidy.
  Suppressions S = Suppressions::parse("x; // NOLINT (roofline-bank-conflict)\n"
                                       "x; // NOLINT: reason (roofline-x)\n");
  EXPECT_EQ(suppressedLines(S, Reuse, 2), "1,2");
}

TEST(SuppressionsTest, UnclosedOrEmptyCheckList) {
  Suppressions S = Suppressions::parse(
      // No ')' before the end of the line: applies to every check.
      "x; // NOLINT(roofline-bank-conflict\n"
      "y; /* NOLINT(roofline-bank-conflict */ z(); // )\n"
      // An empty list names no check.
      "x; // NOLINT()\n"
      // A list does not continue onto the next line of a block comment.
      "x; /* NOLINT(roofline-bank-conflict\n"
      "   roofline-x) */\n");
  EXPECT_EQ(suppressedLines(S, Reuse, 5), "1,2,4");
  EXPECT_EQ(suppressedLines(S, Bank, 5), "1,2,4");
}

TEST(SuppressionsTest, NegativeGlobsAreIgnoredInCheckLists) {
  // clang-tidy drops negative globs from NOLINT lists: "-x" alone suppresses
  // nothing, and "*,-x" suppresses x as well.
  Suppressions S =
      Suppressions::parse("x; // NOLINT(-roofline-bank-conflict)\n"
                          "x; // NOLINT(*,-roofline-bank-conflict)\n"
                          "x; // NOLINT(roofline-*,-roofline-global-reuse)\n");
  EXPECT_EQ(suppressedLines(S, Bank, 3), "2,3");
  EXPECT_EQ(suppressedLines(S, Reuse, 3), "2,3");
  EXPECT_EQ(suppressedLines(S, Other, 3), "2");
}

TEST(SuppressionsTest, BadGlobsInCheckListsMatchNothing) {
  Suppressions S =
      Suppressions::parse("x; // NOLINT(roofline-bank conflict, roofline-[a])\n"
                          "x; // NOLINT(roofline-bank?, roofline-global-*)\n");
  EXPECT_EQ(suppressedLines(S, Bank, 2), "");
  EXPECT_EQ(suppressedLines(S, Reuse, 2), "2");
  EXPECT_TRUE(S.errors().empty());
}

TEST(SuppressionsTest, KeywordsAreNotPrefixesOfEachOther) {
  // Line 1's NOLINTNEXTLINE is no NOLINT for line 1; lines 3, 4 and 6 have
  // no keyword at all, and the keyword is case-sensitive (line 8).
  Suppressions S = Suppressions::parse("a; // NOLINTNEXTLINE\n"
                                       "b;\n"
                                       "c; // NOLINTFOO\n"
                                       "d; // NOLINTNEXTLINEX\n"
                                       "e;\n"
                                       "f; // NOLINTNEXT\n"
                                       "g;\n"
                                       "h; // nolint\n");
  EXPECT_EQ(suppressedLines(S, Bank, 9), "2");
  EXPECT_TRUE(S.errors().empty());
}

TEST(SuppressionsTest, NextLine) {
  // In a block comment, the line after the keyword's own line (7) is
  // suppressed, not the line after the comment.
  Suppressions S =
      Suppressions::parse("// NOLINTNEXTLINE(roofline-bank-conflict)\n"
                          "x;\n"
                          "y;\n"
                          "/* NOLINTNEXTLINE */ z();\n"
                          "w;\n"
                          "/*\n"
                          " * NOLINTNEXTLINE(roofline-global-reuse)\n"
                          " */\n"
                          "v;\n");
  EXPECT_EQ(suppressedLines(S, Bank, 10), "2,5");
  EXPECT_EQ(suppressedLines(S, Reuse, 10), "5,8");
}

TEST(SuppressionsTest, NextLineOnTheLastLine) {
  // Nothing follows: no crash, no error, and nothing before is suppressed.
  Suppressions NoNewline = Suppressions::parse("x;\n// NOLINTNEXTLINE");
  EXPECT_EQ(suppressedLines(NoNewline, Bank, 2), "");
  EXPECT_TRUE(NoNewline.suppresses(3, Bank));
  EXPECT_TRUE(NoNewline.errors().empty());

  Suppressions Newline = Suppressions::parse("x;\n// NOLINTNEXTLINE\n");
  EXPECT_EQ(suppressedLines(Newline, Bank, 2), "");
  EXPECT_TRUE(Newline.errors().empty());
}

TEST(SuppressionsTest, BeginEndRangeIsInclusive) {
  Suppressions S = Suppressions::parse("a;\n"                // 1
                                       "b; // NOLINTBEGIN\n" // 2
                                       "c;\n"                // 3
                                       "d;\n"                // 4
                                       "e; // NOLINTEND\n"   // 5
                                       "f;\n");              // 6
  EXPECT_EQ(suppressedLines(S, Bank, 7), "2,3,4,5");
  EXPECT_EQ(suppressedLines(S, Other, 7), "2,3,4,5");
  EXPECT_TRUE(S.errors().empty()) << errorsToString(S);
}

TEST(SuppressionsTest, BeginEndWithCheckLists) {
  Suppressions S = Suppressions::parse(
      "// NOLINTBEGIN(roofline-bank-conflict, roofline-global-reuse)\n" // 1
      "x;\n"                                                            // 2
      // Whitespace around the globs does not matter for the pairing.
      "// NOLINTEND(roofline-bank-conflict,roofline-global-reuse )\n" // 3
      "x;\n"                                                          // 4
      "// NOLINTBEGIN(roofline-*)\n"                                  // 5
      "x;\n"                                                          // 6
      "// NOLINTEND(roofline-*)\n");                                  // 7
  EXPECT_TRUE(S.errors().empty()) << errorsToString(S);
  EXPECT_EQ(suppressedLines(S, Bank, 8), "1,2,3,5,6,7");
  EXPECT_EQ(suppressedLines(S, Uncoalesced, 8), "5,6,7");
  EXPECT_EQ(suppressedLines(S, Other, 8), "");
}

TEST(SuppressionsTest, UnmatchedBeginAndEndArePositionedErrors) {
  Suppressions S = Suppressions::parse("x;\n"
                                       "  y; // NOLINTEND\n"
                                       "\t/* NOLINTBEGIN(roofline-*) */\n"
                                       "z;\n");
  ASSERT_EQ(S.errors().size(), 2u) << errorsToString(S);
  EXPECT_EQ(S.errors()[0].Line, 2u);
  EXPECT_EQ(S.errors()[0].Column, 9u);
  EXPECT_EQ(S.errors()[0].Message, UnmatchedEnd);
  EXPECT_EQ(S.errors()[1].Line, 3u);
  EXPECT_EQ(S.errors()[1].Column, 5u);
  EXPECT_EQ(S.errors()[1].Message, UnmatchedBegin);
  // An unmatched BEGIN suppresses nothing.
  EXPECT_EQ(suppressedLines(S, Bank, 4), "");
}

TEST(SuppressionsTest, EndMustRepeatTheBeginCheckList) {
  // Different lists, or a list on one side only, do not pair.
  Suppressions S =
      Suppressions::parse("// NOLINTBEGIN(roofline-bank-conflict)\n"
                          "x;\n"
                          "// NOLINTEND(roofline-global-reuse)\n"
                          "// NOLINTBEGIN\n"
                          "// NOLINTEND(*)\n"
                          "// NOLINTBEGIN(a,b)\n"
                          "// NOLINTEND(b,a)\n");
  EXPECT_EQ(errorsToString(S),
            err(1, 4, UnmatchedBegin) + err(3, 4, UnmatchedEnd) +
                err(4, 4, UnmatchedBegin) + err(5, 4, UnmatchedEnd) +
                err(6, 4, UnmatchedBegin) + err(7, 4, UnmatchedEnd));
  EXPECT_EQ(suppressedLines(S, Bank, 8), "");
  EXPECT_EQ(suppressedLines(S, Reuse, 8), "");
}

TEST(SuppressionsTest, NestedRangesWithDifferentGlobs) {
  Suppressions S =
      Suppressions::parse("// NOLINTBEGIN(roofline-bank-conflict)\n" // 1
                          "a;\n"                                     // 2
                          "// NOLINTBEGIN(roofline-global-reuse)\n"  // 3
                          "b;\n"                                     // 4
                          "// NOLINTEND(roofline-global-reuse)\n"    // 5
                          "c;\n"                                     // 6
                          "// NOLINTEND(roofline-bank-conflict)\n"   // 7
                          "d;\n");                                   // 8
  EXPECT_TRUE(S.errors().empty()) << errorsToString(S);
  EXPECT_EQ(suppressedLines(S, Bank, 8), "1,2,3,4,5,6,7");
  EXPECT_EQ(suppressedLines(S, Reuse, 8), "3,4,5");
  EXPECT_EQ(suppressedLines(S, Uncoalesced, 8), "");
}

TEST(SuppressionsTest, CrossedRangesAreUnmatched) {
  // An END closes only the innermost BEGIN: closing the outer one first is
  // an unmatched END, which leaves the outer BEGIN unmatched in turn.
  Suppressions S =
      Suppressions::parse("// NOLINTBEGIN(roofline-bank-conflict)\n" // 1
                          "// NOLINTBEGIN(roofline-global-reuse)\n"  // 2
                          "// NOLINTEND(roofline-bank-conflict)\n"   // 3
                          "// NOLINTEND(roofline-global-reuse)\n"    // 4
                          "x;\n");                                   // 5
  EXPECT_EQ(errorsToString(S),
            err(1, 4, UnmatchedBegin) + err(3, 4, UnmatchedEnd));
  // The pair that did match still works.
  EXPECT_EQ(suppressedLines(S, Reuse, 5), "2,3,4");
  EXPECT_EQ(suppressedLines(S, Bank, 5), "");
}

TEST(SuppressionsTest, SameListNestedPairsInnermostFirst) {
  Suppressions S = Suppressions::parse("// NOLINTBEGIN\n" // 1
                                       "// NOLINTBEGIN\n" // 2
                                       "// NOLINTEND\n"   // 3
                                       "x;\n"             // 4
                                       "// NOLINTEND\n"   // 5
                                       "// NOLINTEND\n"); // 6
  EXPECT_EQ(errorsToString(S), err(6, 4, UnmatchedEnd));
  EXPECT_EQ(suppressedLines(S, Bank, 7), "1,2,3,4,5");
}

TEST(SuppressionsTest, KeywordOutsideCommentsDoesNotCount) {
  Suppressions S = Suppressions::parse(
      "puts(\"NOLINT\");\n"                                  // 1
      "puts(\"// NOLINT\");\n"                               // 2
      "puts(\"/* NOLINTBEGIN */\");\n"                       // 3
      "puts(\"a \\\" // NOLINT\");\n"                        // 4: escaped quote
      "int NOLINT = 0;\n"                                    // 5: identifier
      "char q = '\"'; // NOLINT(roofline-bank-conflict)\n"   // 6
      "puts(\"\\\\\"); // NOLINT(roofline-global-reuse)\n"   // 7: "\\" ends
      "char c = '\\''; // NOLINT(roofline-global-reuse)\n"); // 8
  EXPECT_TRUE(S.errors().empty()) << errorsToString(S);
  EXPECT_EQ(suppressedLines(S, Bank, 9), "6");
  EXPECT_EQ(suppressedLines(S, Reuse, 9), "7,8");
}

TEST(SuppressionsTest, RawStringsAndPrefixedLiterals) {
  Suppressions S = Suppressions::parse(
      "auto a = R\"(// NOLINT\n"                         // 1
      "/* NOLINTBEGIN */ \" ' )\";\n"                    // 2
      "auto b = u8R\"x( )\" // NOLINT )x\"; // NOLINT\n" // 3
      "auto c = L\"// NOLINT\"; auto d = u8'\"';\n"      // 4
      "auto e = U'\\''; // NOLINT\n"                     // 5
      "auto R = 1; auto f = R; // NOLINT\n");            // 6
  EXPECT_TRUE(S.errors().empty()) << errorsToString(S);
  EXPECT_EQ(suppressedLines(S, Bank, 7), "3,5,6");
}

TEST(SuppressionsTest, SplicedStringLiteral) {
  // A backslash before the line break, LF or CRLF, continues the string: the
  // next line's "// NOLINT" is still string text.
  for (const char *Eol : {"\n", "\r\n"}) {
    std::string Text = std::string("puts(\"a\\") + Eol + "// NOLINT\");" + Eol +
                       "x; // NOLINT" + Eol;
    Suppressions S = Suppressions::parse(Text);
    EXPECT_EQ(suppressedLines(S, Bank, 3), "3") << Text;
  }
}

TEST(SuppressionsTest, DigitSeparatorsAreNotCharLiterals) {
  // An odd number of separators on a line would otherwise open a character
  // literal that swallows the comment.
  Suppressions S =
      Suppressions::parse("int n = 1'000'000; // NOLINT\n"
                          "int m = 0xFF'FF; // NOLINT\n"
                          "double x = 1e+5, y = 0x1p-3'0; // NOLINT\n"
                          "z;\n");
  EXPECT_EQ(suppressedLines(S, Bank, 4), "1,2,3");
}

TEST(SuppressionsTest, UnterminatedLiteralEndsAtTheLine) {
  // A stray quote must not hide the comments of the rest of the file.
  Suppressions S = Suppressions::parse("#error don't do this\n"
                                       "x; // NOLINT\n"
                                       "puts(\"oops\n"
                                       "y; // NOLINT\n");
  EXPECT_EQ(suppressedLines(S, Bank, 4), "2,4");
}

TEST(SuppressionsTest, CommentForms) {
  Suppressions S = Suppressions::parse(
      "a; /* one */ b; // NOLINT\n" // 1
      "c; /* multi\n"               // 2
      "   line NOLINT */ d;\n"      // 3: the keyword's own line
      "e; // spliced \\\n"          // 4
      "   NOLINT\n"                 // 5: still the // comment
      "f; //NOLINT(roofline-*)\n"   // 6: no space needed
      "g; // see NOLINT(roofline-bank-conflict) NOLINT(roofline-global-reuse)\n"
      "h; /* unterminated NOLINT\n"); // 8
  EXPECT_EQ(suppressedLines(S, Bank, 9), "1,3,5,6,7,8");
  EXPECT_EQ(suppressedLines(S, Reuse, 9), "1,3,5,6,7,8");
  EXPECT_EQ(suppressedLines(S, Uncoalesced, 9), "1,3,5,6,8");
}

TEST(SuppressionsTest, CrlfLineEndings) {
  Suppressions S = Suppressions::parse(
      "a;\r\n"                                       // 1
      "b; // NOLINT(roofline-bank-conflict)\r\n"     // 2
      "// NOLINTNEXTLINE(roofline-global-reuse)\r\n" // 3
      "c;\r\n"                                       // 4
      "  // NOLINTBEGIN(roofline-*)\r\n"             // 5
      "d;\r\n"                                       // 6
      "// NOLINTEND(roofline-*)\r\n"                 // 7
      "e; // NOLINTEND\r\n"                          // 8
      "f; // NOLINT(roofline-bank-conflict\r\n"      // 9: unclosed
      "g;\r\n");                                     // 10
  EXPECT_EQ(suppressedLines(S, Bank, 10), "2,5,6,7,9");
  EXPECT_EQ(suppressedLines(S, Reuse, 10), "4,5,6,7,9");
  EXPECT_EQ(suppressedLines(S, Other, 10), "9");
  EXPECT_EQ(errorsToString(S), err(8, 7, UnmatchedEnd));
}

TEST(SuppressionsTest, EmptyFile) {
  Suppressions S = Suppressions::parse("");
  EXPECT_FALSE(S.suppresses(1, Bank));
  EXPECT_TRUE(S.errors().empty());
}

} // namespace
