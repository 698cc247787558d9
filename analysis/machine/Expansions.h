//===- Expansions.h - What ptxas turns one instruction into -----*- C++ -*-===//
//
// A division, square root or approximate transcendental is one PTX
// instruction but several SASS instructions: the FP32/FP64 FLOPs (FADD,
// FMUL, 2 per FFMA, as the profiler counts them) and XU-pipe instructions
// (MUFU, FCHK) each executes, per call on its common path. The figures are
// data (analysis/machine/data/expansions.json), each with its sources; they
// were measured on one architecture ("measured_on") and are used for all.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_EXPANSIONS_H
#define CUDA_ROOFLINE_EXPANSIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace roofline {

/// What one PTX instruction ("div.rn.f32") executes.
struct Expansion {
  std::string Op;
  std::map<std::string, int64_t> Flops; ///< Precision ("fp32") -> FLOPs.
  int64_t Xu = 0;                       ///< XU-pipe instructions.
  std::vector<std::string> Sources;
};

class ExpansionTable {
public:
  /// Parses the JSON text; an error names SourceName and the bad entry.
  static llvm::Expected<ExpansionTable> parse(llvm::StringRef JsonText,
                                              llvm::StringRef SourceName);
  /// The table embedded in the binary.
  static const ExpansionTable &builtin();
  /// The entry for Op, or null.
  const Expansion *find(llvm::StringRef Op) const;
  const std::string &measuredOn() const { return MeasuredOn; }

private:
  std::map<std::string, Expansion, std::less<>> Entries;
  std::string MeasuredOn;
};

} // namespace roofline

#endif
