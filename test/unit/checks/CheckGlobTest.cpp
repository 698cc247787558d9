//===- CheckGlobTest.cpp - Unit tests for clang-tidy check globs ----------===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#include "CheckGlob.h"
#include "Checks.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <string>

using namespace roofline;

namespace {

CheckGlob parseOk(llvm::StringRef Text) {
  llvm::Expected<CheckGlob> G = CheckGlob::parse(Text);
  if (!G) {
    ADD_FAILURE() << "'" << Text.str()
                  << "' was rejected: " << llvm::toString(G.takeError());
    return CheckGlob();
  }
  return std::move(*G);
}

std::string parseError(llvm::StringRef Text) {
  llvm::Expected<CheckGlob> G = CheckGlob::parse(Text);
  if (G) {
    ADD_FAILURE() << "'" << Text.str() << "' was accepted";
    return "";
  }
  return llvm::toString(G.takeError());
}

TEST(CheckGlobTest, ExactNames) {
  CheckGlob G = parseOk("roofline-bank-conflict");
  EXPECT_TRUE(G.matches("roofline-bank-conflict"));
  EXPECT_FALSE(G.matches("roofline-bank"));
  EXPECT_FALSE(G.matches("roofline-bank-conflicts"));
  EXPECT_FALSE(G.matches("xroofline-bank-conflict"));
  EXPECT_FALSE(G.matches(""));
}

TEST(CheckGlobTest, WildcardMatchesAnyRun) {
  CheckGlob G = parseOk("roofline-*");
  EXPECT_TRUE(G.matches("roofline-bank-conflict"));
  EXPECT_TRUE(G.matches("roofline-"));
  EXPECT_FALSE(G.matches("roofline"));
  EXPECT_FALSE(G.matches("bugprone-roofline-x"));

  CheckGlob Mid = parseOk("roofline-*-access");
  EXPECT_TRUE(Mid.matches("roofline-uncoalesced-access"));
  EXPECT_TRUE(Mid.matches("roofline-a-b-access"));
  EXPECT_FALSE(Mid.matches("roofline-uncoalesced-accesses"));

  CheckGlob Star = parseOk("*");
  EXPECT_TRUE(Star.matches("anything.at-all_9"));

  // '.' is a literal, not a regex wildcard.
  CheckGlob Dot = parseOk("a.b");
  EXPECT_TRUE(Dot.matches("a.b"));
  EXPECT_FALSE(Dot.matches("axb"));
}

TEST(CheckGlobTest, LastMatchingPatternDecides) {
  CheckGlob G = parseOk("-*,roofline-*,-roofline-kernel-summary");
  EXPECT_TRUE(G.matches("roofline-bank-conflict"));
  EXPECT_FALSE(G.matches("roofline-kernel-summary"));
  EXPECT_FALSE(G.matches("bugprone-foo"));

  // Same patterns, other order: the broad positive glob now comes last and
  // re-enables the check the negative one removed.
  CheckGlob Swapped = parseOk("-*,-roofline-kernel-summary,roofline-*");
  EXPECT_TRUE(Swapped.matches("roofline-kernel-summary"));

  CheckGlob NegLast = parseOk("roofline-*,-*");
  EXPECT_FALSE(NegLast.matches("roofline-bank-conflict"));
}

TEST(CheckGlobTest, NoMatchMeansDisabled) {
  CheckGlob G = parseOk("-roofline-bank-conflict");
  EXPECT_FALSE(G.matches("roofline-bank-conflict"));
  // Only negative patterns: nothing is positively enabled.
  EXPECT_FALSE(G.matches("roofline-global-reuse"));
  EXPECT_FALSE(CheckGlob().matches("roofline-bank-conflict"));
}

TEST(CheckGlobTest, SeparatorsAndWhitespace) {
  CheckGlob G = parseOk("  -* ,\n roofline-bank-conflict\t,\r\n"
                        "roofline-global-reuse\n- roofline-global-reuse ");
  EXPECT_TRUE(G.matches("roofline-bank-conflict"));
  // "- roofline-global-reuse": as in clang-tidy, the space after '-' is
  // allowed and the pattern is still negative.
  EXPECT_FALSE(G.matches("roofline-global-reuse"));
  EXPECT_FALSE(G.matches("roofline-memory-bound"));
}

TEST(CheckGlobTest, EmptyEntriesAreIgnored) {
  CheckGlob G = parseOk("a,,b, ,\n\n,-,");
  EXPECT_TRUE(G.matches("a"));
  EXPECT_TRUE(G.matches("b"));
  EXPECT_FALSE(G.matches(""));
  EXPECT_FALSE(G.empty());

  EXPECT_TRUE(parseOk("").empty());
  EXPECT_TRUE(parseOk(" , ,\n").empty());
  EXPECT_TRUE(parseOk("-").empty());
  EXPECT_TRUE(CheckGlob().empty());
  // Matches nothing but is a pattern: a config saying "-*" is not silent.
  EXPECT_FALSE(parseOk("-*").empty());
}

TEST(CheckGlobTest, RejectsCharactersOutsideCheckNames) {
  for (llvm::StringRef Bad :
       {"roofline-[ab]", "roofline-?", "roofline-{a,b}", "a\\b", "a b",
        "roofline/x", "roofline-x(", "a$"}) {
    llvm::Expected<CheckGlob> G = CheckGlob::parse(Bad);
    EXPECT_FALSE(static_cast<bool>(G)) << Bad.str();
    if (!G)
      llvm::consumeError(G.takeError());
  }
  // The message names the offending pattern and character, not the list.
  std::string Msg = parseError("roofline-*, bad?glob ,-x");
  EXPECT_NE(Msg.find("'bad?glob'"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("'?'"), std::string::npos) << Msg;
  EXPECT_EQ(Msg.find("roofline-*"), std::string::npos) << Msg;

  // A negated pattern is checked too; the '-' is not part of its name.
  Msg = parseError("-roofline-[x]");
  EXPECT_NE(Msg.find("'roofline-[x]'"), std::string::npos) << Msg;

  // Unprintable bytes are escaped in the message.
  Msg = parseError(llvm::StringRef("a\x01", 2));
  EXPECT_NE(Msg.find("\\x01"), std::string::npos) << Msg;
}

TEST(CheckGlobTest, AllowedCharacters) {
  CheckGlob G = parseOk("Mod_1.check-Name*");
  EXPECT_TRUE(G.matches("Mod_1.check-Name"));
  EXPECT_TRUE(G.matches("Mod_1.check-Name-extra"));
  EXPECT_FALSE(G.matches("mod_1.check-name"));
}

TEST(CheckGlobTest, CopiesOutliveTheOriginalAndTheText) {
  // The patterns refer into stored text: copies and moves must stay valid
  // after the source text and the original object are gone.
  CheckGlob Copy;
  {
    std::string Text = "-*,roofline-bank-*";
    CheckGlob G = parseOk(Text);
    Text.assign(Text.size(), 'x');
    Copy = G;
  }
  CheckGlob Moved = std::move(Copy);
  EXPECT_TRUE(Moved.matches("roofline-bank-conflict"));
  EXPECT_FALSE(Moved.matches("roofline-global-reuse"));
}

} // namespace

TEST(CheckGlobTest, NamesInFull) {
  auto G = CheckGlob::parse("roofline-*,roofline-missing-size");
  ASSERT_TRUE(static_cast<bool>(G)) << llvm::toString(G.takeError());
  EXPECT_TRUE(G->namesInFull("roofline-missing-size"));
  // Matched, but by a wildcard only.
  EXPECT_TRUE(G->matches("roofline-kernel-summary"));
  EXPECT_FALSE(G->namesInFull("roofline-kernel-summary"));

  // The last matching pattern decides, as for matches().
  auto Off = CheckGlob::parse("roofline-missing-size,-roofline-*");
  ASSERT_TRUE(static_cast<bool>(Off)) << llvm::toString(Off.takeError());
  EXPECT_FALSE(Off->namesInFull("roofline-missing-size"));
  auto Neg = CheckGlob::parse("-roofline-missing-size");
  ASSERT_TRUE(static_cast<bool>(Neg)) << llvm::toString(Neg.takeError());
  EXPECT_FALSE(Neg->namesInFull("roofline-missing-size"));
  // Whitespace around the name is not part of it.
  auto Spaced = CheckGlob::parse(" roofline-missing-size ,");
  ASSERT_TRUE(static_cast<bool>(Spaced)) << llvm::toString(Spaced.takeError());
  EXPECT_TRUE(Spaced->namesInFull("roofline-missing-size"));
}

TEST(CheckGlobTest, PromotionOfWarningsAndNotes) {
  auto All = CheckGlob::parse("*");
  ASSERT_TRUE(static_cast<bool>(All)) << llvm::toString(All.takeError());
  // A wildcard promotes warnings, never notes.
  EXPECT_TRUE(promotesToError(*All, "roofline-uncoalesced-access", "warning"));
  EXPECT_FALSE(promotesToError(*All, "roofline-missing-size", "note"));
  EXPECT_FALSE(promotesToError(*All, "roofline-kernel-summary", "note"));
  // Named in full, the missing-size note is promoted; the summary, which
  // only informs, never is.
  auto Named =
      CheckGlob::parse("roofline-missing-size,roofline-kernel-summary");
  ASSERT_TRUE(static_cast<bool>(Named)) << llvm::toString(Named.takeError());
  EXPECT_TRUE(promotesToError(*Named, "roofline-missing-size", "note"));
  EXPECT_FALSE(promotesToError(*Named, "roofline-kernel-summary", "note"));
}

TEST(CheckGlobTest, GlobsThatEnableNoCheck) {
  for (const char *Text : {"-*,roofline-uncoalesced", "-*", "clang-*", ""}) {
    auto G = CheckGlob::parse(Text);
    ASSERT_TRUE(static_cast<bool>(G)) << llvm::toString(G.takeError());
    llvm::Error E = checkGlobEnablesSome(*G, Text);
    ASSERT_TRUE(static_cast<bool>(E)) << Text;
    std::string Msg = llvm::toString(std::move(E));
    EXPECT_NE(Msg.find("'" + std::string(Text) + "' enables no check"),
              std::string::npos)
        << Msg;
    // The message lists the ids, so the typo is easy to see.
    EXPECT_NE(Msg.find("roofline-uncoalesced-access"), std::string::npos);
  }
  for (const char *Text : {"-*,roofline-uncoalesced-access", "roofline-*",
                           "*,-roofline-*,roofline-missing-size"}) {
    auto G = CheckGlob::parse(Text);
    ASSERT_TRUE(static_cast<bool>(G)) << llvm::toString(G.takeError());
    EXPECT_FALSE(static_cast<bool>(checkGlobEnablesSome(*G, Text))) << Text;
  }
}
