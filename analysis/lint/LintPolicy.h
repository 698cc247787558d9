//===- LintPolicy.h - Which findings a lint run reports, and how -*- C++
//-*-===//
//
// The same rules as clang-tidy, for the front-ends clang-tidy does not wrap
// (the command-line tool and the clang plugin): a check glob selects checks,
// NOLINT / NOLINTNEXTLINE / NOLINTBEGIN..NOLINTEND comments suppress
// findings on their lines, and --warnings-as-errors promotes warnings.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LINTPOLICY_H
#define CUDA_ROOFLINE_LINTPOLICY_H

#include "CheckGlob.h"
#include "Report.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct LintPolicy {
  std::optional<CheckGlob> Checks;           ///< None: every check.
  std::optional<CheckGlob> WarningsAsErrors; ///< None: no promotion.
};

struct LintOutcome {
  unsigned Errors = 0;     ///< Findings promoted to errors.
  unsigned Suppressed = 0; ///< Findings NOLINT comments removed.
  /// Unpaired NOLINTBEGIN/NOLINTEND comments, as clang-tidy reports them
  /// ("file:line:col: error: message [clang-tidy-nolint]").
  std::vector<std::string> Problems;
};

/// Applies P to the findings of R in place. MainText, when given, is R's
/// file as an editor holds it (its NOLINT comments count, not the disk's).
LintOutcome applyLintPolicy(FileReport &R, const LintPolicy &P,
                            const std::string *MainText = nullptr);

/// Flags, with the check globs of R's config file where the flags gave
/// none; an error naming the config file when its globs are malformed or
/// enable no check.
llvm::Expected<LintPolicy> withConfigGlobs(const FileReport &R,
                                           LintPolicy Flags);

} // namespace roofline

#endif
