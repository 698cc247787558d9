//===- ReviewEmittersTest.cpp - Check registry and review formats ---------===//
//
// Part of cuda-roofline. The cases the bundled kernels do not produce:
// promoted errors, checks missing from the registry, text that needs
// escaping, files outside the root, non-ASCII columns, long finding lists.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "Emitters.h"
#include "ReviewSupport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace roofline;

namespace {

TEST(ChecksTest, EveryCheckIsDocumented) {
  llvm::StringSet<> Seen;
  for (const CheckInfo &C : allChecks()) {
    EXPECT_TRUE(C.Id.starts_with("roofline-")) << C.Id.str();
    EXPECT_TRUE(Seen.insert(C.Id).second) << "duplicate " << C.Id.str();
    EXPECT_FALSE(C.ShortDescription.empty()) << C.Id.str();
    EXPECT_FALSE(C.FullDescription.empty()) << C.Id.str();
    EXPECT_TRUE(C.Help.contains("docs/findings.md")) << C.Id.str();
    EXPECT_TRUE(C.DefaultLevel == "warning" || C.DefaultLevel == "note");
    EXPECT_EQ(findCheck(C.Id), &C);
  }
  // The ids Findings.cpp emits.
  for (const char *Id :
       {"roofline-uncoalesced-access", "roofline-global-reuse",
        "roofline-bank-conflict", "roofline-unvectorized-access",
        "roofline-memory-bound", "roofline-kernel-summary"})
    EXPECT_NE(findCheck(Id), nullptr) << Id;
  EXPECT_EQ(findCheck("roofline-kernel-summary")->DefaultLevel, "note");
  EXPECT_EQ(findCheck("roofline-nonexistent"), nullptr);
  // The enumerators name the registry's entries.
  for (const CheckInfo &C : allChecks()) {
    EXPECT_EQ(&checkInfo(C.Which), &C) << C.Id.str();
    EXPECT_EQ(C.docPage(), "docs/checks/" + C.Id.str() + ".md");
  }
  EXPECT_EQ(checkId(CheckId::BankConflict), "roofline-bank-conflict");
  EXPECT_TRUE(kernelLevelCheck("roofline-missing-size"));
  EXPECT_FALSE(kernelLevelCheck("roofline-bank-conflict"));
}

TEST(ReviewSupportTest, RelativeUnderRootAbsoluteOutside) {
  EXPECT_EQ(reviewPath("/repo/src/k.cu", "/repo").Path, "src/k.cu");
  EXPECT_TRUE(reviewPath("/repo/src/k.cu", "/repo").UnderRoot);
  EXPECT_EQ(reviewPath("/repo/src/../k.cu", "/repo").Path, "k.cu");
  // A sibling that shares the root's spelling is not under it.
  ReviewPath Sibling = reviewPath("/repo2/k.cu", "/repo");
  EXPECT_FALSE(Sibling.UnderRoot);
  EXPECT_EQ(Sibling.Path, "/repo2/k.cu");
  EXPECT_EQ(reviewPath("/k.cu", "/").Path, "k.cu");
}

TEST(ReviewSupportTest, BackslashIsPartOfAPosixName) {
  if (llvm::sys::path::is_style_windows(llvm::sys::path::Style::native))
    GTEST_SKIP() << "'\\' is a separator on Windows";
  // 'bs\h.cuh' is one file, not 'h.cuh' in directory 'bs'.
  EXPECT_EQ(reviewPath("/repo/bs\\h.cuh", "/repo").Path, "bs\\h.cuh");
  EXPECT_EQ(reviewPath("/other/bs\\h.cuh", "/repo").Path, "/other/bs\\h.cuh");
  EXPECT_EQ(fileUri("/repo/bs\\h.cuh", /*Directory=*/false),
            "file:///repo/bs%5Ch.cuh");
}

TEST(ReviewSupportTest, RootFromOptions) {
  ReviewOptions O;
  O.SourceRoot = "/repo/sub/..";
  EXPECT_EQ(reviewRoot(O), "/repo");
  O.SourceRoot = "";
  llvm::SmallString<256> Cwd;
  ASSERT_FALSE(llvm::sys::fs::current_path(Cwd));
  EXPECT_EQ(reviewPath("k.cu", reviewRoot(O)).Path, "k.cu");
}

TEST(ReviewSupportTest, PercentEncoding) {
  EXPECT_EQ(percentEncodePath("a b/\xC3\xA9%,:#?.cu"),
            "a%20b/%C3%A9%25%2C%3A%23%3F.cu");
  EXPECT_EQ(percentEncodePath("A-z_0.9~/x"), "A-z_0.9~/x");
  EXPECT_EQ(fileUri("/work/my repo", /*Directory=*/true),
            "file:///work/my%20repo/");
  EXPECT_EQ(fileUri("/work/k.cu", /*Directory=*/false), "file:///work/k.cu");
}

Finding finding(std::string Check, std::string Level, unsigned Line,
                unsigned Column, std::string Message) {
  Finding F;
  F.Check = std::move(Check);
  F.Level = std::move(Level);
  F.Loc.File = "/repo/k.cu";
  F.Loc.Line = Line;
  F.Loc.Column = Column;
  F.Message = std::move(Message);
  return F;
}

TEST(ReviewSupportTest, NotesJoinTheMessage) {
  Finding F = finding("roofline-unvectorized-access", "warning", 9, 5,
                      "global load of 'x[i]' moves 4 elements");
  F.Notes.push_back({"/repo/k.cu", 9, 5, "same place"});
  F.Notes.push_back({"/repo/k.cu", 7, 3, "this loop"});
  EXPECT_EQ(messageWithNotes(F, NoteStyle::Lines, "/repo"),
            "global load of 'x[i]' moves 4 elements\nnote: same place\n"
            "note (line 7): this loop");
  EXPECT_EQ(messageWithNotes(F, NoteStyle::Sentences, "/repo"),
            "Global load of 'x[i]' moves 4 elements. Same place. At line 7: "
            "this loop.");
}

TEST(ReviewSupportTest, NoteInAnotherFileNamesIt) {
  // The access in k.cu, its loop on the same line number of a header: the
  // note says the header's path, relative to the root.
  Finding F = finding("roofline-unvectorized-access", "warning", 9, 5,
                      "global load of 'x[i]' moves 4 elements");
  F.Notes.push_back({"/repo/include/h.cuh", 9, 3, "this loop"});
  EXPECT_EQ(messageWithNotes(F, NoteStyle::Lines, "/repo"),
            "global load of 'x[i]' moves 4 elements\n"
            "note (include/h.cuh:9): this loop");
  EXPECT_EQ(messageWithNotes(F, NoteStyle::Sentences, "/repo"),
            "Global load of 'x[i]' moves 4 elements. At include/h.cuh:9: "
            "this loop.");
}

/// One file, one kernel, with these findings.
struct Fixture {
  GpuSpec Gpu;
  std::vector<FileReport> Files;
  ReviewOptions Opts;

  explicit Fixture(std::vector<Finding> Findings) {
    Gpu.Name = "Test | GPU";
    FileReport F;
    F.File = "/repo/k.cu";
    F.Gpu = &Gpu;
    KernelReport K;
    K.Decl.Name = "ns::k<`a`|*b*>";
    K.Decl.Loc = {"/repo/k.cu", 3, 17};
    K.Findings = std::move(Findings);
    F.Kernels.push_back(std::move(K));
    Files.push_back(std::move(F));
    Opts.SourceRoot = "/repo";
  }

  template <typename Fn> std::string run(Fn Emit) const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    Emit(OS, Files, Opts);
    return S;
  }
};

TEST(ReviewEmittersTest, PromotedErrorsInEveryFormat) {
  Fixture T({finding("roofline-bank-conflict", "error", 4, 2, "conflict")});
  EXPECT_EQ(T.run(emitGithub),
            "::error file=k.cu,line=4,col=2,title=roofline-bank-conflict::"
            "conflict\n");
  EXPECT_NE(T.run(emitRdjsonl).find("\"severity\":\"ERROR\""),
            std::string::npos);
  EXPECT_NE(T.run(emitMarkdown)
                .find("`roofline-bank-conflict` (error): "
                      "conflict"),
            std::string::npos);
  auto Log = llvm::json::parse(T.run(emitSarif));
  ASSERT_TRUE(bool(Log)) << llvm::toString(Log.takeError());
  const llvm::json::Object *Result = Log->getAsObject()
                                         ->getArray("runs")
                                         ->front()
                                         .getAsObject()
                                         ->getArray("results")
                                         ->front()
                                         .getAsObject();
  EXPECT_EQ(Result->getString("level"), "error");
  EXPECT_EQ(Result->getInteger("ruleIndex"), 2);
}

TEST(ReviewEmittersTest, GithubEscapesDataAndProperties) {
  Fixture T({finding("roofline-x,y:z", "warning", 1, 1, "50% a\r\nb: c, d")});
  T.Files[0].Kernels[0].Findings[0].Loc.File = "/repo/a,b:c%.cu";
  EXPECT_EQ(T.run(emitGithub),
            "::warning file=a%2Cb%3Ac%25.cu,line=1,col=1,"
            "title=roofline-x%2Cy%3Az::50%25 a%0D%0Ab: c, d\n");
}

TEST(ReviewEmittersTest, SarifRuleForAnUnregisteredCheck) {
  Fixture T({finding("roofline-future", "warning", 2, 1, "later")});
  auto Log = llvm::json::parse(T.run(emitSarif));
  ASSERT_TRUE(bool(Log)) << llvm::toString(Log.takeError());
  const llvm::json::Object &Run =
      *Log->getAsObject()->getArray("runs")->front().getAsObject();
  const llvm::json::Array &Rules =
      *Run.getObject("tool")->getObject("driver")->getArray("rules");
  ASSERT_EQ(Rules.size(), allChecks().size() + 1);
  const llvm::json::Object &Last = *Rules.back().getAsObject();
  EXPECT_EQ(Last.getString("id"), "roofline-future");
  EXPECT_FALSE(Last.getObject("help")->getString("text")->empty());
  EXPECT_EQ(
      Run.getArray("results")->front().getAsObject()->getInteger("ruleIndex"),
      int64_t(allChecks().size()));
}

TEST(ReviewEmittersTest, SarifColumnsCountUtf16Units) {
  // 'é' is two bytes and one UTF-16 unit; U+1F600 four bytes and two units.
  Finding F = finding("roofline-bank-conflict", "warning", 5, 12, "m");
  F.SourceLine = "/*\xC3\xA9\xF0\x9F\x98\x80*/ x";
  // Byte column 12 is the 'x' (after 2 + 2 + 4 + 3 bytes).
  auto Log = llvm::json::parse(Fixture({F}).run(emitSarif));
  ASSERT_TRUE(bool(Log));
  const llvm::json::Object *Region = Log->getAsObject()
                                         ->getArray("runs")
                                         ->front()
                                         .getAsObject()
                                         ->getArray("results")
                                         ->front()
                                         .getAsObject()
                                         ->getArray("locations")
                                         ->front()
                                         .getAsObject()
                                         ->getObject("physicalLocation")
                                         ->getObject("region");
  EXPECT_EQ(Region->getInteger("startLine"), 5);
  EXPECT_EQ(Region->getInteger("startColumn"), 9);
}

TEST(ReviewEmittersTest, NotesInTheirOwnFile) {
  // A finding in k.cu whose note is in a header, on the finding's line
  // number and column: SARIF's related location has the header's URI and
  // its byte column (the finding's line text is another file's), Markdown
  // names the header.
  Finding F = finding("roofline-unvectorized-access", "warning", 5, 12, "m");
  F.SourceLine = "/*\xC3\xA9\xF0\x9F\x98\x80*/ x";
  F.Notes.push_back({"/repo/include/h.cuh", 5, 12, "loop"});
  F.Notes.push_back({"/repo/k.cu", 5, 12, "here"});
  Fixture T({F});
  auto Log = llvm::json::parse(T.run(emitSarif));
  ASSERT_TRUE(bool(Log));
  const llvm::json::Array &Related = *Log->getAsObject()
                                          ->getArray("runs")
                                          ->front()
                                          .getAsObject()
                                          ->getArray("results")
                                          ->front()
                                          .getAsObject()
                                          ->getArray("relatedLocations");
  ASSERT_EQ(Related.size(), 2u);
  auto Physical = [&](size_t I) {
    return Related[I].getAsObject()->getObject("physicalLocation");
  };
  EXPECT_EQ(Physical(0)->getObject("artifactLocation")->getString("uri"),
            "include/h.cuh");
  EXPECT_EQ(Physical(0)->getObject("region")->getInteger("startColumn"), 12);
  EXPECT_EQ(Physical(1)->getObject("artifactLocation")->getString("uri"),
            "k.cu");
  EXPECT_EQ(Physical(1)->getObject("region")->getInteger("startColumn"), 9);
  std::string Md = T.run(emitMarkdown);
  EXPECT_NE(Md.find("  - `include/h.cuh:5`: loop\n  - here\n"),
            std::string::npos)
      << Md;
}

TEST(ReviewEmittersTest, MarkdownEscapesAndCapsTheList) {
  std::vector<Finding> Many;
  for (unsigned I = 1; I <= 12; ++I)
    Many.push_back(finding("roofline-uncoalesced-access", "warning", I, 1,
                           "load of 'a[i | j]'"));
  Many.push_back(finding("roofline-kernel-summary", "note", 3, 17, "sum"));
  Fixture T(Many);
  std::string Md = T.run(emitMarkdown);
  // The GPU is named once, above the table, not in a column.
  EXPECT_NE(Md.find("### Kernels on Test \\| GPU\n"), std::string::npos) << Md;
  EXPECT_NE(Md.find("| ns::k\\<\\`a\\`\\|\\*b\\*\\> | k.cu:3 | unknown | - "
                    "| - | - |\n"),
            std::string::npos)
      << Md;
  EXPECT_NE(Md.find("1 kernel in 1 file, 12 findings."), std::string::npos);
  EXPECT_NE(Md.find("- `k.cu:10:1` `roofline-uncoalesced-access`: load of "
                    "'a\\[i \\| j\\]'\n"),
            std::string::npos);
  EXPECT_EQ(Md.find("`k.cu:11:1`"), std::string::npos);
  EXPECT_NE(Md.find("- ... and 2 more in k.cu\n"), std::string::npos);
  EXPECT_EQ(Md.find("sum"), std::string::npos); // Notes are not listed.
}

TEST(ReviewEmittersTest, MarkdownCountsFindingsWhereTheyAre) {
  // The kernel of k.cu has 12 findings in k.cu (odd lines) and 11 in the
  // header it includes (even lines), interleaved: 10 of each are listed,
  // and each file's count says how many more it holds.
  std::vector<Finding> Many;
  for (unsigned I = 1; I <= 23; ++I) {
    Many.push_back(
        finding("roofline-uncoalesced-access", "warning", I, 1, "load"));
    if (I % 2 == 0)
      Many.back().Loc.File = "/repo/include/h.cuh";
  }
  Fixture T(Many);
  std::string Md = T.run(emitMarkdown);
  EXPECT_NE(Md.find("`k.cu:19:1`"), std::string::npos) << Md;
  EXPECT_EQ(Md.find("`k.cu:21:1`"), std::string::npos) << Md;
  EXPECT_NE(Md.find("`include/h.cuh:20:1`"), std::string::npos) << Md;
  EXPECT_EQ(Md.find("`include/h.cuh:22:1`"), std::string::npos) << Md;
  EXPECT_NE(Md.find("- ... and 2 more in k.cu\n"
                    "- ... and 1 more in include/h.cuh\n"),
            std::string::npos)
      << Md;
}

TEST(ReviewEmittersTest, NoFindings) {
  Fixture T({});
  EXPECT_EQ(T.run(emitGithub), "");
  EXPECT_EQ(T.run(emitRdjsonl), "");
  EXPECT_NE(T.run(emitMarkdown).find("### Top findings\n\nNo findings.\n"),
            std::string::npos);
  auto Log = llvm::json::parse(T.run(emitSarif));
  ASSERT_TRUE(bool(Log));
  EXPECT_TRUE(Log->getAsObject()
                  ->getArray("runs")
                  ->front()
                  .getAsObject()
                  ->getArray("results")
                  ->empty());
}

} // namespace
