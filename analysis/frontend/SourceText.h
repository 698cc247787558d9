//===- SourceText.h - Expressions recovered from source text ----*- C++ -*-===//
//
// Debug locations give a line and a column, not the expression there: an
// access's finding quotes the expression, read back from the source file's
// text at its location. This is a scan of the text, not a parse: it knows
// identifiers, subscripts, calls, member accesses, dereferences, casts and
// the assignments stores are located at.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_SOURCETEXT_H
#define CUDA_ROOFLINE_SOURCETEXT_H

#include "SourceLoc.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>
#include <string>

namespace roofline {

/// The expression that starts at Line:Column of Text (1-based): an
/// identifier followed by subscripts, calls and member accesses, or a
/// dereference; empty if there is none. A store is located at its `=`: the
/// expression is then the left-hand side, and StartColumn (if given) is set
/// to where it starts.
/// A load located at an `=` is the copy's right-hand side (IsLoad), which
/// may start on a later line (StartLine).
std::string expressionAt(llvm::StringRef Text, unsigned Line, unsigned Column,
                         unsigned *StartColumn = nullptr, bool IsLoad = false,
                         unsigned *StartLine = nullptr);

/// Source files by path, each read once per file analyzed: the text that
/// accesses quote their expressions from and findings show their line of.
class SourceFiles {
public:
  /// Path's text; empty if it cannot be read.
  llvm::StringRef text(const std::string &Path);
  /// The line at L (without its line break); empty if there is none.
  std::string line(const SourceLoc &L);
  /// Path's text is Text, not the file on disk (an unsaved buffer).
  void set(const std::string &Path, llvm::StringRef Text);

private:
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Files;
};

} // namespace roofline

#endif
