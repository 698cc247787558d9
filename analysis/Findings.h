//===- Findings.h - Lint findings from the analysis -------------*- C++ -*-===//
//
// Findings are what a reviewer would say about a line: built here, once,
// from the access analysis, and only formatted by the emitters and the lint
// front-ends. Check ids are stable: roofline-uncoalesced-access,
// roofline-bank-conflict.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_FINDINGS_H
#define CUDA_ROOFLINE_FINDINGS_H

#include "AccessAnalysis.h"

#include <string>
#include <vector>

namespace roofline {

/// Thresholds, with their documented defaults (docs/findings.md).
struct FindingOptions {
  /// roofline-uncoalesced-access fires when more than this fraction of the
  /// sectors a request fetches is beyond what its bytes need.
  double MinEfficiencyLoss = 0.5;
  /// roofline-bank-conflict fires from this many ways.
  unsigned MinConflictWays = 2;
};

struct FindingNote {
  unsigned Line = 0, Column = 0;
  std::string Message;
};

struct Finding {
  std::string Check;
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Message;
  std::vector<FindingNote> Notes;
  std::string SourceLine; ///< The line of source, for the caret display.
};

std::vector<Finding> buildFindings(const std::vector<AccessInfo> &Accesses,
                                   const FindingOptions &Opts);

} // namespace roofline

#endif
