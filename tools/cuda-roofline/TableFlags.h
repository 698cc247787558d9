//===- TableFlags.h - The option table's command-line flags -----*- C++ -*-===//
//
// One llvm::cl option per row of analysis/core/Options.def with a CLI flag,
// typed by its kind (so that --help, llvm::cl's parse errors and the value
// names are those of a hand-written cl::opt): --gpu, --arch, --param,
// --launch, --checks, --warnings-as-errors, the thresholds,
// --kernel-summary, the limits and --no-prelude.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_TABLEFLAGS_H
#define CUDA_ROOFLINE_TABLEFLAGS_H

#include "OptionTable.h"

#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

namespace roofline {

class TableFlags {
public:
  /// Registers the flags in Cat.
  explicit TableFlags(llvm::cl::OptionCategory &Cat);

  /// Whether the flag of Id was given.
  bool given(OptionId Id) const;
  /// The value of a GpuId, Arch or Globs flag.
  const std::string &text(OptionId Id) const;
  /// The values of a Param or Launch flag, in order.
  llvm::ArrayRef<std::string> items(OptionId Id) const;
  /// The value of a Number or Limit flag.
  double number(OptionId Id) const;
  /// The value of a Count flag.
  unsigned count(OptionId Id) const;
  /// The value of a Bool flag (for a --no-NAME flag, whether it was given).
  bool flag(OptionId Id) const;

private:
  std::vector<std::unique_ptr<llvm::cl::Option>> Flags; ///< By OptionId.
};

} // namespace roofline

#endif
