//===- ConfigEdit.h - Sizes written into .cuda-roofline.yaml ----*- C++ -*-===//
//
// The code action that gives a missing size a value for the whole workspace:
// an entry under `params:` of the .cuda-roofline.yaml the analysis reads for
// the file, or a new file at the workspace's root when there is none. The
// edit keeps the file's own layout: a line inserted into the block mapping
// (indented as its entries are), or a `params:` block appended.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LSP_CONFIGEDIT_H
#define CUDA_ROOFLINE_LSP_CONFIGEDIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace roofline {

/// Text to insert at a 0-based line and column (bytes).
struct TextInsertion {
  unsigned Line = 0, Column = 0;
  std::string Text;
};

/// Where `Param: Value` goes in the configuration text Yaml: after a
/// top-level `params:` line, or appended in a new `params:` block. None when
/// `params` is written in flow style (`params: {n: 1}`), which a line cannot
/// extend safely.
std::optional<TextInsertion> paramInsertion(llvm::StringRef Yaml,
                                            llvm::StringRef Param,
                                            llvm::StringRef Value);

/// What the client lets the server do with the workspace.
struct WorkspaceAccess {
  std::string Root;            ///< The workspace's folder, or empty.
  bool CanCreateFiles = false; ///< workspaceEdit.resourceOperations: create.
};

/// The code action (LSP CodeAction, JSON) that gives Param a value in the
/// configuration of File: the .cuda-roofline.yaml above it, or a new one at
/// the workspace's root (or File's folder) when the client can create
/// files. None when there is no place to write, or the configuration cannot
/// be read.
std::optional<llvm::json::Value> configSizeAction(const std::string &File,
                                                  llvm::StringRef Param,
                                                  const WorkspaceAccess &W);

} // namespace roofline

#endif
