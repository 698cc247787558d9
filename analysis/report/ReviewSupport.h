//===- ReviewSupport.h - Shared pieces of the review formats ----*- C++ -*-===//
//
// The SARIF, GitHub, rdjsonl and Markdown emitters all name files relative
// to the repository root and all flatten a finding's notes into its message;
// they do it here, the same way.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_REVIEWSUPPORT_H
#define CUDA_ROOFLINE_REVIEWSUPPORT_H

#include "Emitters.h"
#include "Findings.h"
#include "Version.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace roofline {

/// The absolute, dot-free root that paths are made relative to:
/// Opts.SourceRoot, or the current directory when it is empty.
std::string reviewRoot(const ReviewOptions &Opts);

struct ReviewPath {
  /// Forward slashes. Relative to the root when the file is under it;
  /// otherwise absolute.
  std::string Path;
  bool UnderRoot = false;
};

/// File (as the analysis names it, relative to the current directory or
/// absolute) as a review tool wants it. Falls back to resolving symlinks
/// when the plain paths do not nest.
ReviewPath reviewPath(llvm::StringRef File, llvm::StringRef Root);

/// RFC 3986 percent-encoding of a path for a URI: unreserved characters
/// (ALPHA DIGIT - . _ ~) and '/' stay, every other byte becomes %XX.
std::string percentEncodePath(llvm::StringRef Path);

/// file:///... URI of an absolute path; Directory adds the trailing slash
/// that SARIF requires of a uriBaseId.
std::string fileUri(llvm::StringRef AbsolutePath, bool Directory);

/// S as valid UTF-8: each invalid byte becomes U+FFFD. The review formats
/// are UTF-8 text (JSON, annotations, Markdown); a name or quoted source
/// in another encoding must not make the whole output unreadable.
std::string validUtf8(llvm::StringRef S);

/// How notes join their finding's message.
enum class NoteStyle {
  /// "MESSAGE\nnote: NOTE" (GitHub annotations, reviewdog).
  Lines,
  /// "Message. Note." (SARIF message.text).
  Sentences,
};

/// The finding's message with its notes, self-contained: a note placed
/// elsewhere than the finding says its line, and its file (as reviewPath
/// names it against Root) when that is another one.
std::string messageWithNotes(const Finding &F, NoteStyle Style,
                             llvm::StringRef Root);

/// What a format calls a finding's level ("error", "warning" or "note").
struct LevelNames {
  llvm::StringRef Error, Warning, Note;
};
llvm::StringRef levelName(llvm::StringRef Level, const LevelNames &Names);

} // namespace roofline

#endif
