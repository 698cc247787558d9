//===- LintOptions.h - Analysis options by name, for every front-end -*- C++ -*-===//
//
// The command-line tool, the clang plugin (-fplugin-arg-cuda-roofline-KEY=V),
// the clang-tidy module (CheckOptions roofline.Key) and .cuda-roofline.yaml
// all set the same options. One parser, so that a value means the same
// everywhere and a bad one gets the same message:
//
//   gpu                   GPU id (see --list-gpus)
//   param                 NAME=VALUE (repeatable; VALUE an integer, or null
//                         for a pointer parameter)
//   params                NAME=VALUE;NAME=VALUE or comma-separated
//   launch                KERNEL=GRID/BLOCK[/SMEM] (repeatable)
//   launches              several, separated by ';'
//   min-efficiency-loss   [0, 1)     roofline-uncoalesced-access
//   min-conflict-ways     2 .. 32    roofline-bank-conflict
//   min-reuse             >= 2       roofline-global-reuse
//   min-reuse-cost        >= 0       roofline-global-reuse (fraction of the
//                                    speed of light)
//   memory-bound-fraction (0, 1]     roofline-memory-bound
//   kernel-summary        true/false roofline-kernel-summary
//   max-kernel-seconds    >= 0       time limit per kernel (0: none)
//   max-kernel-memory     >= 0       resident-memory limit in MiB (0: none)
//   max-file-seconds      >= 0       time limit per file (0: none)
//   prelude               true/false pre-include the nvcc-compatibility
//                                    prelude (Prelude.h; lint front-ends)
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LINTOPTIONS_H
#define CUDA_ROOFLINE_LINTOPTIONS_H

#include "Report.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace roofline {

/// Sets option Key (spelled as above; `MinReuse`-style CamelCase is
/// accepted too) to Value. The error names the option and the bad value.
llvm::Error setLintOption(AnalyzerOptions &Opts, llvm::StringRef Key,
                          llvm::StringRef Value);

/// The thresholds' valid ranges, checked wherever they were set.
llvm::Error checkFindingOptions(const FindingOptions &Opts);

} // namespace roofline

#endif
