//===- LintSupport.h - What both lint front-ends share ----------*- C++ -*-===//
//
// The clang plugin and the clang-tidy module analyze the device-side AST they
// are given with the library's Analyzer and report its findings as clang
// diagnostics. This is the part they share: turning a finding's file, line
// and column back into a SourceLocation.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_PLUGIN_LINTSUPPORT_H
#define CUDA_ROOFLINE_PLUGIN_LINTSUPPORT_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace roofline {

/// The location of File:Line:Column in SM (File as the analysis printed it:
/// the main file's name, or an absolute path), or the start of the main
/// file if File is not part of the translation unit.
clang::SourceLocation findingLocation(clang::SourceManager &SM,
                                      const std::string &File, unsigned Line,
                                      unsigned Column);

} // namespace roofline

#endif
