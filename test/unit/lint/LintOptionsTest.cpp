//===- LintOptionsTest.cpp - The options of the lint front-ends ----------===//

#include "LintOptions.h"
#include "GpuDatabase.h"

#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

/// The error text of setting Key to Value as the clang plugin does, or ""
/// when it was accepted.
std::string errorOf(LintSettings &S, llvm::StringRef Key,
                    llvm::StringRef Value) {
  llvm::Error E = setOption(S, FrontEnd::Plugin, Key, Value);
  return E ? llvm::toString(std::move(E)) : "";
}

TEST(LintOptionsTest, KernelLimits) {
  LintSettings S;
  AnalyzerOptions &Opts = S.Analysis;
  EXPECT_EQ(Opts.KernelSeconds, 30);
  EXPECT_EQ(Opts.KernelMemoryMiB, 4096);
  EXPECT_EQ(errorOf(S, "max-kernel-seconds", "2.5"), "");
  EXPECT_EQ(Opts.KernelSeconds, 2.5);
  // The clang-tidy module passes CheckOptions names.
  EXPECT_EQ(errorOf(S, "MaxKernelMemory", "512"), "");
  EXPECT_EQ(Opts.KernelMemoryMiB, 512);
  EXPECT_EQ(errorOf(S, "max-kernel-memory", "0"), "");
  EXPECT_EQ(Opts.KernelMemoryMiB, 0);
  std::string Neg = errorOf(S, "max-kernel-memory", "-1");
  EXPECT_NE(Neg.find("max-kernel-memory"), std::string::npos) << Neg;
  EXPECT_NE(Neg.find("'-1'"), std::string::npos) << Neg;
  EXPECT_EQ(Opts.KernelMemoryMiB, 0); // Unchanged by the refused value.
}

TEST(LintOptionsTest, FileLimit) {
  LintSettings S;
  AnalyzerOptions &Opts = S.Analysis;
  EXPECT_EQ(Opts.FileSeconds, 120);
  EXPECT_EQ(errorOf(S, "MaxFileSeconds", "45"), "");
  EXPECT_EQ(Opts.FileSeconds, 45);
  EXPECT_EQ(errorOf(S, "max-file-seconds", "0"), "");
  EXPECT_EQ(Opts.FileSeconds, 0);
  std::string Neg = errorOf(S, "max-file-seconds", "-3");
  EXPECT_NE(Neg.find("expected seconds >= 0"), std::string::npos) << Neg;
  EXPECT_EQ(Opts.FileSeconds, 0);
}

TEST(LintOptionsTest, ConflictWaysMustBeAWholeNumberInRange) {
  // Values that do not fit an unsigned are refused before any conversion
  // (converting them is undefined behaviour; UBSan caught -1).
  for (const char *V : {"-1", "1e20", "2.5", "nan"}) {
    LintSettings S;
    std::string E = errorOf(S, "min-conflict-ways", V);
    EXPECT_NE(E, "") << V;
    EXPECT_NE(E.find("min-conflict-ways"), std::string::npos) << E;
  }
  LintSettings S;
  EXPECT_EQ(errorOf(S, "min-conflict-ways", "4"), "");
  EXPECT_EQ(S.Analysis.Findings.MinConflictWays, 4u);
}

TEST(LintOptionsTest, Prelude) {
  // On unless turned off (roofline.Prelude, -fplugin-arg-roofline-prelude).
  LintSettings S;
  AnalyzerOptions &Opts = S.Analysis;
  EXPECT_TRUE(Opts.Prelude);
  EXPECT_EQ(errorOf(S, "Prelude", "false"), "");
  EXPECT_FALSE(Opts.Prelude);
  EXPECT_EQ(errorOf(S, "prelude", "on"), "");
  EXPECT_TRUE(Opts.Prelude);
  std::string Bad = errorOf(S, "prelude", "maybe");
  EXPECT_NE(Bad.find("'maybe': expected true or false"), std::string::npos)
      << Bad;
  EXPECT_TRUE(Opts.Prelude); // Unchanged by the refused value.
}

TEST(OptionTableTest, RowsAreConsistent) {
  unsigned Index = 0;
  llvm::StringSet<> Names;
  for (const OptionSpec &O : optionTable()) {
    EXPECT_EQ(unsigned(O.Id), Index++) << O.Name;
    EXPECT_EQ(&option(O.Id), &O) << O.Name;
    EXPECT_TRUE(Names.insert(O.Name).second) << "duplicate " << O.Name;
    EXPECT_TRUE(*O.Help) << O.Name;
    for (FrontEnd F :
         {FrontEnd::Cli, FrontEnd::Config, FrontEnd::Tidy, FrontEnd::Plugin}) {
      if (O.acceptedBy(F)) {
        EXPECT_EQ(findOption(F, O.key(F)), &O) << O.Name;
      }
    }
    // The numbers have a range their messages name.
    bool Numeric = O.Kind == OptionKind::Number ||
                   O.Kind == OptionKind::Count || O.Kind == OptionKind::Limit;
    EXPECT_EQ(Numeric, *O.Range.Text != 0) << O.Name;
    EXPECT_EQ(O.Kind == OptionKind::Limit, *O.Unit != 0) << O.Name;
  }
  // Every spelling names one option.
  EXPECT_EQ(findOption(FrontEnd::Tidy, "MaxKernelSeconds"),
            &option(OptionId::MaxKernelSeconds));
  EXPECT_EQ(findOption(FrontEnd::Plugin, "max_kernel_seconds"),
            &option(OptionId::MaxKernelSeconds));
  EXPECT_EQ(findOption(FrontEnd::Config, "max-file-seconds"),
            &option(OptionId::MaxFileSeconds));
  // Only where the front-end accepts it.
  EXPECT_EQ(findOption(FrontEnd::Tidy, "Checks"), nullptr);
  EXPECT_EQ(findOption(FrontEnd::Plugin, "arch"), nullptr);
  EXPECT_EQ(findOption(FrontEnd::Config, "prelude"), nullptr);
  EXPECT_TRUE(option(OptionId::Prelude).cliNegates());
}

TEST(OptionTableTest, DefaultsAreTheAnalysisDefaults) {
  // The table's defaults as the front-ends parse them are what the option
  // structs start with (optionDefault, read from the same row).
  LintSettings Defaults;
  for (const OptionSpec &O : optionTable()) {
    LintSettings S;
    llvm::StringRef D = O.Default;
    if (D.empty())
      continue;
    if (O.Id == OptionId::Gpu) {
      EXPECT_EQ(D, DefaultGpu);
      continue;
    }
    ASSERT_FALSE(setOption(S, O, O.Name, D)) << O.Name;
    OptionField Set = optionField(S, O.Id), Was = optionField(Defaults, O.Id);
    if (auto *V = std::get_if<double *>(&Set))
      EXPECT_EQ(**V, *std::get<double *>(Was)) << O.Name;
    else if (auto *U = std::get_if<unsigned *>(&Set))
      EXPECT_EQ(**U, *std::get<unsigned *>(Was)) << O.Name;
    else if (auto *B = std::get_if<bool *>(&Set))
      EXPECT_EQ(**B, *std::get<bool *>(Was)) << O.Name;
    else
      ADD_FAILURE() << "a default for " << O.Name;
  }
  // The lint front-ends' own: no kernel summary.
  EXPECT_TRUE(defaultSettings(FrontEnd::Cli).Analysis.Findings.KernelSummary);
  EXPECT_FALSE(defaultSettings(FrontEnd::Tidy).Analysis.Findings.KernelSummary);
  EXPECT_FALSE(
      defaultSettings(FrontEnd::Plugin).Analysis.Findings.KernelSummary);
}

TEST(OptionTableTest, MessagesNameTheOptionAndTheValue) {
  LintSettings S;
  EXPECT_EQ(errorOf(S, "min-reuse", "1.5"),
            "option 'min-reuse' must be at least 2: got 1.5");
  S = LintSettings();
  EXPECT_EQ(errorOf(S, "MinReuse", "abc"),
            "option 'MinReuse': bad value 'abc': expected a number");
  EXPECT_EQ(errorOf(S, "gpu", " "),
            "option 'gpu': bad value '': expected a GPU id (see --list-gpus)");
  EXPECT_EQ(errorOf(S, "checks", "-*,roofline-nope"),
            "'-*,roofline-nope' enables no check (the checks: "
            "roofline-uncoalesced-access, roofline-global-reuse, "
            "roofline-bank-conflict, roofline-unvectorized-access, "
            "roofline-memory-bound, roofline-kernel-summary, "
            "roofline-not-analyzed, roofline-missing-size)");
  EXPECT_EQ(errorOf(S, "foo", "1"),
            "unknown option 'foo' (expected gpu, param, params, launch, "
            "launches, min-efficiency-loss, min-conflict-ways, min-reuse, "
            "min-reuse-cost, memory-bound-fraction, kernel-summary, "
            "max-kernel-seconds, max-kernel-memory, max-file-seconds or "
            "prelude)");
  EXPECT_EQ(errorOf(S, "checks", "roofline-*,-roofline-memory-bound"), "");
  ASSERT_TRUE(S.Policy.Checks);
  EXPECT_FALSE(S.Policy.Checks->matches("roofline-memory-bound"));
}

TEST(OptionTableTest, ReadOptionsNamesTheKey) {
  LintSettings S;
  auto Get = [](llvm::StringRef Key) -> std::optional<std::string> {
    if (Key == "MinReuse")
      return std::string("8");
    if (Key == "MaxFileSeconds")
      return std::string("-2");
    return std::nullopt;
  };
  llvm::Error E = readOptions(S, FrontEnd::Tidy, Get);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "MaxFileSeconds: option 'MaxFileSeconds': bad value '-2': "
            "expected seconds >= 0 (0: no limit)");
  EXPECT_EQ(S.Analysis.Findings.MinReuse, 8); // Read before the bad one.
}

TEST(OptionTableTest, UnknownGpu) {
  AnalyzerOptions Opts;
  EXPECT_FALSE(checkGpu(Opts, lintGpus()));
  Opts.GpuId = "h100-sxm";
  EXPECT_FALSE(checkGpu(Opts, lintGpus()));
  Opts.GpuId = "h9000";
  llvm::Error E = checkGpu(Opts, lintGpus());
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "unknown GPU 'h9000' (see cuda-roofline --list-gpus)");
}

} // namespace
