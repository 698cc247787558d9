//===- Suppressions.h - clang-tidy NOLINT comments --------------*- C++ -*-===//
//
// Checks loaded into clang-tidy get NOLINT handling from clang-tidy; the
// standalone tool must honour the same comments, with the same meaning:
//
//   code;  // NOLINT                      this line, every check
//   code;  // NOLINT(roofline-*)          this line, the matching checks
//   // NOLINTNEXTLINE(roofline-bank-conflict, roofline-global-reuse)
//   code;                                 the line after the comment
//   // NOLINTBEGIN(roofline-*)
//   ...                                   the BEGIN line to the END line,
//   // NOLINTEND(roofline-*)               both included
//
// As in clang-tidy: the check list must follow the keyword immediately (no
// space) and close on the same line, or the comment applies to every check;
// its globs are CheckGlob patterns, where negative ones are ignored; text
// after the keyword or the ')' is free; `NOLINTEND` closes the innermost open
// `NOLINTBEGIN` and must repeat its check list (whitespace around the globs
// aside). Unlike clang-tidy, which searches the raw text, the keyword counts
// only inside a comment, so a string literal holding "NOLINT" is not one.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_SUPPRESSIONS_H
#define CUDA_ROOFLINE_SUPPRESSIONS_H

#include "CheckGlob.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// A NOLINTBEGIN or NOLINTEND that has no partner, at its keyword (1-based
/// line and byte column).
struct SuppressionError {
  unsigned Line = 0, Column = 0;
  std::string Message;
};

class Suppressions {
public:
  /// Reads the NOLINT comments of a source file. Never fails: unpaired
  /// BEGIN/END comments are reported by errors() and suppress nothing.
  static Suppressions parse(llvm::StringRef FileText);

  /// Whether a finding of check CheckId on (1-based) Line is suppressed.
  bool suppresses(unsigned Line, llvm::StringRef CheckId) const;

  /// Unpaired NOLINTBEGIN/NOLINTEND comments, in file order.
  const std::vector<SuppressionError> &errors() const { return Errors; }

private:
  struct Range {
    unsigned FirstLine, LastLine;
    /// The checks suppressed; none means all of them.
    std::optional<CheckGlob> Checks;
  };
  std::vector<Range> Ranges;
  std::vector<SuppressionError> Errors;
};

} // namespace roofline

#endif
