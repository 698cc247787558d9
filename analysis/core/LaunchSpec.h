//===- LaunchSpec.h - Launch configurations and --launch/--param -*- C++ -*-===//

#ifndef CUDA_ROOFLINE_LAUNCHSPEC_H
#define CUDA_ROOFLINE_LAUNCHSPEC_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct Dim3 {
  std::array<int64_t, 3> V = {1, 1, 1};
  int64_t count() const { return V[0] * V[1] * V[2]; }
};

/// A launch whose sizes have no value, evaluated with one sample size
/// given to all of them (the speed of light without sizes).
struct SampledLaunch {
  int64_t Size = 0;
  Dim3 Grid, Block;
  int64_t SharedBytes = 0;
  /// Kernel parameter name -> value of the integer arguments.
  std::map<std::string, int64_t> Args;
};

/// The sizes a missing size takes when the roofline is swept without
/// sizes: 2^k and 3 * 2^(k-1) from 16 to 4096 (16, 24, 32, 48, ...).
const std::vector<int64_t> &rooflineSweepSizes();

/// A `--launch 'KERNEL=GX[,GY[,GZ]]/BX[,BY[,BZ]][/SMEM]'` override.
struct LaunchOverride {
  std::string Text;         ///< The whole setting as written, for messages.
  std::string Kernel;       ///< As written, possibly with template arguments.
  std::string PlainName;    ///< Without template arguments.
  std::string TemplateArgs; ///< Text between the outer <>, or empty.
  Dim3 Grid, Block;
  int64_t SharedBytes = 0;
};

llvm::Expected<LaunchOverride> parseLaunchOverride(llvm::StringRef Text);

/// Why a launch configuration cannot run on NVIDIA hardware (CUDA limits:
/// at most 1024 threads per block, block.z <= 64, grid.x < 2^31, grid.y and
/// grid.z <= 65535, no zero-size block), or empty if it can. A grid of zero
/// blocks is valid here: it runs nothing.
std::string launchLimitError(const Dim3 &Grid, const Dim3 &Block);

/// Parses `NAME=VALUE` where VALUE is a decimal or 0x-prefixed integer, or
/// `null` (also `nullptr`, `NULL`) for a pointer parameter: a null pointer is
/// the value 0, and any other value of a pointer parameter is a non-null
/// address (docs/counting.md, "Pointer guards").
llvm::Expected<std::pair<std::string, int64_t>> parseParam(llvm::StringRef Text);

/// The VALUE of a --param (see parseParam), or nullopt if it is not one.
std::optional<int64_t> parseParamValue(llvm::StringRef Value);

} // namespace roofline

#endif
