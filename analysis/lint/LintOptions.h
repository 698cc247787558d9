//===- LintOptions.h - Setting the options of the table ---------*- C++ -*-===//
//
// Every front-end sets the options of core/Options.def: the command-line
// tool (--FLAG, typed by llvm::cl), .cuda-roofline.yaml, the clang-tidy
// module (CheckOptions roofline.KEY) and the clang plugin
// (-fplugin-arg-roofline-KEY=VALUE). The config file, the clang-tidy module
// and the clang plugin give values as text: one parser, so that a value
// means the same everywhere and a bad one gets the same message. The names,
// keys, ranges and defaults are the table's (OptionTable.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LINTOPTIONS_H
#define CUDA_ROOFLINE_LINTOPTIONS_H

#include "LintPolicy.h"
#include "OptionTable.h"
#include "Report.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace roofline {

/// What the options set: the analysis's options and, for the check globs,
/// the lint policy. Options.def's FIELD column names a member of this.
struct LintSettings {
  AnalyzerOptions Analysis;
  LintPolicy Policy;
};

/// The field an option sets, typed by its kind.
using OptionField =
    std::variant<std::optional<std::string> *, std::string *,
                 std::map<std::string, int64_t> *, std::vector<KernelLaunch> *,
                 std::optional<CheckGlob> *, double *, unsigned *, bool *>;

/// The field of S that option Id sets.
OptionField optionField(LintSettings &S, OptionId Id);

/// The settings a front-end starts from: the defaults, and F's own where
/// the table gives one (the kernel summary is off in the lint front-ends).
LintSettings defaultSettings(FrontEnd F);

/// Sets option O to Value (text). Key is the option as the user wrote it,
/// for the message: "option 'KEY': bad value 'VALUE': WHY", or for a
/// threshold out of range "option 'NAME' must be RANGE: got VALUE".
llvm::Error setOption(LintSettings &S, const OptionSpec &O, llvm::StringRef Key,
                      llvm::StringRef Value);

/// Sets the option Key names in front-end F (findOption: MinReuse,
/// min-reuse and min_reuse alike), or an error naming F's options.
llvm::Error setOption(LintSettings &S, FrontEnd F, llvm::StringRef Key,
                      llvm::StringRef Value);

/// Sets, in the table's order, every option of front-end F that Get has a
/// value for (Get: the value of F's key, or none). The first bad value
/// stops it: "KEY: MESSAGE".
llvm::Error readOptions(
    LintSettings &S, FrontEnd F,
    llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Get);

/// The thresholds' ranges (the Number and Count options), checked wherever
/// they were set: "option 'NAME' must be RANGE: got VALUE".
llvm::Error checkRanges(const LintSettings &S);

/// The GPU database the lint front-ends analyze with (the built-in one).
const GpuDatabase &lintGpus();

/// An error if Opts names a GPU DB lacks: "unknown GPU 'ID' (see
/// cuda-roofline --list-gpus)".
llvm::Error checkGpu(const AnalyzerOptions &Opts, const GpuDatabase &DB);

} // namespace roofline

#endif
