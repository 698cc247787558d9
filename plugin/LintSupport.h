//===- LintSupport.h - What both lint front-ends share ----------*- C++ -*-===//
//
// The clang plugin and the clang-tidy module analyze the device-side AST they
// are given with the library's Analyzer and report its findings as clang
// diagnostics. Their options, the GPU database and the unknown-GPU error
// are the library's (analysis/lint/LintOptions.h); this is the part that
// needs clang: turning a finding into diagnostics -- its level, its place
// (a file, line and column back into a SourceLocation) and its notes.
// Each front-end only maps the levels to its own diagnostic ids.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_PLUGIN_LINTSUPPORT_H
#define CUDA_ROOFLINE_PLUGIN_LINTSUPPORT_H

#include "Findings.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"

#include <string>
#include <vector>

namespace roofline {

/// The location of Where in SM (its file as the analysis printed it: the
/// main file's name, or an absolute path), or the start of the main file
/// if that file is not part of the translation unit.
clang::SourceLocation findingLocation(clang::SourceManager &SM,
                                      const SourceLoc &Where);

/// How a diagnostic of a finding is reported.
enum class LintLevel { Error, Warning, Remark, Note };

struct LintDiagnostic {
  LintLevel Level;
  clang::SourceLocation Loc;
  std::string Message;
};

/// How a front-end words a finding.
struct LintStyle {
  /// Report a note (a finding of level "note") as a warning, for the
  /// front-end to promote (clang-tidy, whose --warnings-as-errors promotes
  /// warnings only, when it names the check in full); else a remark.
  bool NoteAsWarning = false;
  /// End the finding's message with " [CHECK]" (" [CHECK,-warnings-as-errors]"
  /// when promoted), as clang-tidy does: the clang plugin, whose
  /// diagnostics clang prints without a check name.
  bool TagCheck = false;
};

/// The diagnostics that report F: F itself -- an error when a lint policy
/// promoted it, a remark when it is a note (which has nothing to attach
/// to), else a warning -- and then, unless it is a remark, each of its
/// notes.
std::vector<LintDiagnostic>
findingDiagnostics(clang::SourceManager &SM, const Finding &F, LintStyle Style);

} // namespace roofline

#endif
