//===- LintOptionsTest.cpp - The options of the lint front-ends ----------===//

#include "LintOptions.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

/// The error text of setting Key to Value, or "" when it was accepted.
std::string errorOf(AnalyzerOptions &Opts, llvm::StringRef Key,
                    llvm::StringRef Value) {
  llvm::Error E = setLintOption(Opts, Key, Value);
  return E ? llvm::toString(std::move(E)) : "";
}

TEST(LintOptionsTest, KernelLimits) {
  AnalyzerOptions Opts;
  EXPECT_EQ(Opts.KernelSeconds, 30);
  EXPECT_EQ(Opts.KernelMemoryMiB, 4096);
  EXPECT_EQ(errorOf(Opts, "max-kernel-seconds", "2.5"), "");
  EXPECT_EQ(Opts.KernelSeconds, 2.5);
  // The clang-tidy module passes CheckOptions names.
  EXPECT_EQ(errorOf(Opts, "MaxKernelMemory", "512"), "");
  EXPECT_EQ(Opts.KernelMemoryMiB, 512);
  EXPECT_EQ(errorOf(Opts, "max-kernel-memory", "0"), "");
  EXPECT_EQ(Opts.KernelMemoryMiB, 0);
  std::string Neg = errorOf(Opts, "max-kernel-memory", "-1");
  EXPECT_NE(Neg.find("max-kernel-memory"), std::string::npos) << Neg;
  EXPECT_NE(Neg.find("'-1'"), std::string::npos) << Neg;
  EXPECT_EQ(Opts.KernelMemoryMiB, 0); // Unchanged by the refused value.
}

TEST(LintOptionsTest, FileLimit) {
  AnalyzerOptions Opts;
  EXPECT_EQ(Opts.FileSeconds, 120);
  EXPECT_EQ(errorOf(Opts, "MaxFileSeconds", "45"), "");
  EXPECT_EQ(Opts.FileSeconds, 45);
  EXPECT_EQ(errorOf(Opts, "max-file-seconds", "0"), "");
  EXPECT_EQ(Opts.FileSeconds, 0);
  std::string Neg = errorOf(Opts, "max-file-seconds", "-3");
  EXPECT_NE(Neg.find("expected seconds >= 0"), std::string::npos) << Neg;
  EXPECT_EQ(Opts.FileSeconds, 0);
}

TEST(LintOptionsTest, ConflictWaysMustBeAWholeNumberInRange) {
  // Values that do not fit an unsigned are refused before any conversion
  // (converting them is undefined behaviour; UBSan caught -1).
  for (const char *V : {"-1", "1e20", "2.5", "nan"}) {
    AnalyzerOptions Opts;
    std::string E = errorOf(Opts, "min-conflict-ways", V);
    EXPECT_NE(E, "") << V;
    EXPECT_NE(E.find("min-conflict-ways"), std::string::npos) << E;
  }
  AnalyzerOptions Opts;
  EXPECT_EQ(errorOf(Opts, "min-conflict-ways", "4"), "");
  EXPECT_EQ(Opts.Findings.MinConflictWays, 4u);
}

TEST(LintOptionsTest, Prelude) {
  // On unless turned off (roofline.Prelude, -fplugin-arg-roofline-prelude).
  AnalyzerOptions Opts;
  EXPECT_TRUE(Opts.Prelude);
  EXPECT_EQ(errorOf(Opts, "Prelude", "false"), "");
  EXPECT_FALSE(Opts.Prelude);
  EXPECT_EQ(errorOf(Opts, "prelude", "on"), "");
  EXPECT_TRUE(Opts.Prelude);
  std::string Bad = errorOf(Opts, "prelude", "maybe");
  EXPECT_NE(Bad.find("'maybe': expected true or false"), std::string::npos)
      << Bad;
  EXPECT_TRUE(Opts.Prelude); // Unchanged by the refused value.
}

} // namespace
