//===- OptionTable.h - The options of every front-end -----------*- C++ -*-===//
//
// One row per option (Options.def): what the command-line tool, the config
// file, the clang-tidy module and the clang plugin call it, its type, range,
// default and help. Each front-end registers, reads and documents its
// options from here; lint/LintOptions.h parses a value into the settings.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_OPTIONTABLE_H
#define CUDA_ROOFLINE_OPTIONTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace roofline {

enum class OptionId : unsigned {
#define ROOFLINE_OPTION(ID, ...) ID,
#include "Options.def"
};

/// How a value is written and what it must be.
enum class OptionKind {
  GpuId,    ///< A GPU id of the database (--list-gpus).
  Arch,     ///< A device architecture, sm_XX.
  Param,    ///< One NAME=VALUE (repeatable; several separated by newlines).
  Params,   ///< NAME=VALUE;NAME=VALUE or comma-separated.
  Launch,   ///< One launch (repeatable; several separated by newlines).
  Launches, ///< Launches separated by ';'.
  Globs,    ///< A clang-tidy check glob list.
  Number,   ///< A number in its range (a threshold).
  Count,    ///< A whole number in its range (a threshold).
  Limit,    ///< A number of its unit, >= 0, 0 for no limit.
  Bool,     ///< true/false (1/0, on/off).
};

/// The front-ends, each with its own spelling of an option.
enum class FrontEnd {
  Cli,    ///< cuda-roofline --FLAG
  Config, ///< .cuda-roofline.yaml
  Tidy,   ///< clang-tidy CheckOptions roofline.KEY
  Plugin, ///< clang -fplugin-arg-roofline-KEY=VALUE
};

/// A number's valid values.
struct OptionRange {
  double Min = 0, Max = 0;
  bool MinClosed = true, MaxClosed = true;
  /// As messages say it: "in [0, 1)", "at least 2", ">= 0". Empty: any.
  const char *Text = "";

  /// Whether V is in the range (NaN is not).
  bool contains(double V) const {
    return (MinClosed ? V >= Min : V > Min) && (MaxClosed ? V <= Max : V < Max);
  }
};

struct OptionSpec {
  OptionId Id;
  /// The name messages give ("option 'min-reuse' must be ...").
  const char *Name;
  OptionKind Kind;
  /// Each front-end's key; "" where it does not accept the option.
  const char *ConfigKey, *TidyKey, *PluginKey, *CliFlag;
  OptionRange Range;
  /// A limit's unit ("seconds", "MiB").
  const char *Unit;
  /// The default, written as a value is; LintDefault is the lint
  /// front-ends' where it differs (else null).
  const char *Default, *LintDefault;
  /// The command line's name of the value; "": llvm::cl's.
  const char *ValueDesc;
  /// The command line's --help text.
  const char *Help;

  /// F's key or flag for this option; empty if F does not accept it.
  llvm::StringRef key(FrontEnd F) const;
  bool acceptedBy(FrontEnd F) const { return !key(F).empty(); }
  /// The default in front-end F.
  llvm::StringRef defaultIn(FrontEnd F) const;
  /// A Bool whose command-line flag is --no-NAME: the flag sets it false.
  bool cliNegates() const;
};

namespace detail {
/// An option's DEFAULT as Options.def writes it, at compile time.
constexpr const char *defaultText(OptionId Id) {
  switch (Id) {
#define ROOFLINE_OPTION(ID, NAME, KIND, CONFIG, TIDY, PLUGIN, CLI, RANGE,      \
                        UNIT, DEFAULT, ...)                                    \
  case OptionId::ID:                                                           \
    return DEFAULT;
#include "Options.def"
  }
  return "";
}

/// A default's value: "true" 1, "false" 0, else the decimal number
/// (digits, a point, digits) it writes.
constexpr double defaultValue(const char *S) {
  if (S[0] == 't')
    return 1;
  if (S[0] == 'f')
    return 0;
  double V = 0, Scale = 1;
  bool Fraction = false;
  for (; *S; ++S) {
    if (*S == '.') {
      Fraction = true;
      continue;
    }
    V = V * 10 + (*S - '0');
    if (Fraction)
      Scale *= 10;
  }
  return V / Scale;
}
} // namespace detail

/// The default of a number, limit or Bool option, from its one row in
/// Options.def: the option structs start from it, so that a default is
/// written once.
constexpr double optionDefault(OptionId Id) {
  return detail::defaultValue(detail::defaultText(Id));
}

/// Every option, in the order of Options.def.
llvm::ArrayRef<OptionSpec> optionTable();

/// The row of Id.
const OptionSpec &option(OptionId Id);

/// The row whose key in front-end F is Key, or null. CamelCase, dashes and
/// underscores are one: MaxKernelSeconds, max-kernel-seconds and
/// max_kernel_seconds name the same option.
const OptionSpec *findOption(FrontEnd F, llvm::StringRef Key);

} // namespace roofline

#endif
