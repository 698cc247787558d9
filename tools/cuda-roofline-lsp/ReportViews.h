//===- ReportViews.h - A FileReport as LSP objects --------------*- C++ -*-===//
//
// Diagnostics, hovers and document symbols, each read off the report: a
// finding's place, level, check and notes; the hover texts of
// analysis/report (kernelHover, accessHover); a kernel's speed of light.
// Positions are LSP's: 0-based lines, and columns counted in the line's
// bytes, which equal UTF-16 units for the ASCII of CUDA code.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LSP_REPORTVIEWS_H
#define CUDA_ROOFLINE_LSP_REPORTVIEWS_H

#include "ConfigEdit.h"
#include "Report.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// The diagnostics of R by file (absolute path; MainPath is the analyzed
/// one, whose text is MainText), each a JSON object of LSP's Diagnostic with
/// the check as `code` and its documentation page as `codeDescription`.
std::map<std::string, std::vector<llvm::json::Value>>
diagnosticsOf(const FileReport &R, const std::string &MainPath,
              llvm::StringRef MainText);

/// One Error diagnostic at the top of the file: the analysis failed.
llvm::json::Value failureDiagnostic(llvm::StringRef Message);

/// The hover at Pos of the analyzed file: a kernel's name or an access.
std::optional<llvm::lsp::Hover> hoverAt(const FileReport &R,
                                        const std::string &MainPath,
                                        llvm::StringRef MainText,
                                        llvm::lsp::Position Pos);

/// The analyzed file's kernels, one symbol per launch analyzed, with the
/// speed of light and bound (or what is missing) as detail.
std::vector<llvm::lsp::DocumentSymbol> symbolsOf(const FileReport &R,
                                                 const std::string &MainPath,
                                                 llvm::StringRef MainText);

/// The inlay hints a client turned on (all off by default).
struct HintKinds {
  bool Sectors = false; ///< After each access: sectors per request (global),
                        ///< bank-conflict ways (shared).
  bool Trips = false;   ///< After each loop header: its trip count formula.
  bool Kernels = false; ///< After each kernel's name: speed of light, bound.
};

/// The inlay hints of the analyzed file within Visible, as LSP InlayHint
/// objects.
llvm::json::Value inlayHintsOf(const FileReport &R, const std::string &MainPath,
                               llvm::StringRef MainText, HintKinds Kinds,
                               llvm::lsp::Range Visible);

/// The code actions for Range of the analyzed file (URI Uri): for each
/// finding there, suppressing it with NOLINT on its line or NOLINTNEXTLINE
/// above it; for a kernel there without sizes, an annotation that gives
/// each missing name a value in this file, and an entry of the workspace's
/// .cuda-roofline.yaml that gives it one in every file (configSizeAction).
llvm::json::Value codeActionsAt(const FileReport &R,
                                const std::string &MainPath,
                                llvm::StringRef MainText,
                                const std::string &Uri, llvm::lsp::Range Range,
                                const WorkspaceAccess &Workspace);

} // namespace roofline

#endif
