//===- CheckGlob.h - clang-tidy style check selection globs -----*- C++ -*-===//
//
// Check selection with clang-tidy's `Checks:` syntax, so that a `.clang-tidy`
// line such as `-*,roofline-*,-roofline-kernel-summary` means the same thing
// to this tool as it does to clang-tidy (clang-tidy's GlobList):
//
//   - patterns are separated by ',' or newlines; surrounding whitespace is
//     trimmed and empty entries are ignored;
//   - '*' matches any (possibly empty) run of characters;
//   - a leading '-' negates the pattern;
//   - the LAST pattern that matches a check id decides; no match means the
//     check is not enabled.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_CHECKGLOB_H
#define CUDA_ROOFLINE_CHECKGLOB_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace roofline {

class CheckGlob {
public:
  /// An empty list: matches nothing.
  CheckGlob();

  /// Parses a comma- or newline-separated list of globs. Fails, naming the
  /// pattern, when a pattern has a character that cannot appear in a check
  /// glob (only letters, digits, '_', '.', '-' and '*' can).
  static llvm::Expected<CheckGlob> parse(llvm::StringRef Text);

  /// Whether the last pattern matching CheckId is a positive one.
  bool matches(llvm::StringRef CheckId) const;

  /// Whether the last pattern matching CheckId is CheckId itself, written
  /// out without '*': `roofline-missing-size` names that check in full,
  /// `roofline-*` and `*` do not.
  bool namesInFull(llvm::StringRef CheckId) const;

  /// Whether the list has no patterns at all (empty entries do not count).
  /// Note that "-*" is not empty, though it matches nothing.
  bool empty() const;

private:
  struct Storage;
  // Shared and immutable: llvm::GlobPattern keeps references into the text it
  // was created from, so the text must never move once the patterns exist.
  std::shared_ptr<const Storage> Impl;
};

} // namespace roofline

#endif
