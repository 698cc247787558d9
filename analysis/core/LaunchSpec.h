//===- LaunchSpec.h - Launch configurations and --launch/--param -*- C++
//-*-===//
//
// One type, KernelLaunch, carries a launch from wherever it is written (a
// --launch flag, an annotation, a config file, a <<<>>> call site) to the
// report, with its provenance: the settings parse into it, the host
// evaluation fills it, the engine counts it and the emitters print it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LAUNCHSPEC_H
#define CUDA_ROOFLINE_LAUNCHSPEC_H

#include "SourceLoc.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

struct Dim3 {
  std::array<int64_t, 3> V = {1, 1, 1};
  int64_t count() const { return V[0] * V[1] * V[2]; }
  /// "(x,y,z)", as every message and report writes a grid or a block.
  std::string str() const;
};

/// D's str(), or "?" when it is unknown.
std::string dimText(const std::optional<Dim3> &D);

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

/// Where a launch configuration came from.
enum class LaunchSource { None, Call, Flag, Annotation, Config };
const char *launchSourceName(LaunchSource S);

/// A launch of a kernel and where it comes from.
struct KernelLaunch {
  LaunchSource Source = LaunchSource::None;
  /// The call site, the annotation or config entry; "--launch" for a flag.
  SourceLoc Loc;

  /// A setting (flag, annotation, config file): the whole setting as
  /// written (for messages), and the kernel it names as written, without
  /// its template arguments, and the text between its outer <>.
  std::string Text, Kernel, PlainName, TemplateArgs;
  /// A call site: the kernel it launches.
  std::string KernelMangledName;

  std::optional<Dim3> Grid, Block;
  int64_t SharedBytes = 0;
  /// A call site whose dynamic shared memory does not evaluate (counted
  /// as 0).
  bool SharedBytesUnknown = false;
  /// Why Grid/Block could not be evaluated (e.g. "n has no value"), or
  /// why the launch is refused.
  std::string Unresolved;
  /// When Unresolved is a launcher parameter or local without a value: its
  /// name (what a --param or an annotation supplies).
  std::string UnresolvedParam;
  /// For one of the launches of a call site in loops that are enumerated,
  /// the loop variables' values ("bs=64"); empty otherwise.
  std::string Iteration;
  /// A call site: kernel parameter name -> value, for integer arguments
  /// that evaluate and pointer arguments that are null pointer constants
  /// (0: null).
  std::map<std::string, int64_t> Args;
  /// A call site: the names of the launching function's parameters and
  /// locals: a --param with one of these names is an input of the host
  /// code, not a direct value for the same-named kernel parameter.
  std::set<std::string> HostNames;
  /// For a launch whose grid (not block) misses integer values that --param
  /// could give: those names, and the launch with each of
  /// rooflineSweepSizes() given to all of them.
  std::vector<std::string> SampledNames;
  std::vector<SampledLaunch> Samples;

  bool known() const { return Grid && Block; }
};

/// Parses a `--launch 'KERNEL=GX[,GY[,GZ]]/BX[,BY[,BZ]][/SMEM]'` setting
/// (Source Flag; the caller sets another source and Loc for an annotation
/// or a config entry).
llvm::Expected<KernelLaunch> parseLaunchOverride(llvm::StringRef Text);

/// Why a launch configuration cannot run on NVIDIA hardware (CUDA limits:
/// at most 1024 threads per block, block.z <= 64, grid.x < 2^31, grid.y and
/// grid.z <= 65535, no zero-size block), or empty if it can. A grid of zero
/// blocks is valid here: it runs nothing.
std::string launchLimitError(const Dim3 &Grid, const Dim3 &Block);

/// Parses `NAME=VALUE` where VALUE is a decimal or 0x-prefixed integer, or
/// `null` (also `nullptr`, `NULL`) for a pointer parameter: a null pointer is
/// the value 0, and any other value of a pointer parameter is a non-null
/// address (docs/counting.md, "Pointer guards").
llvm::Expected<std::pair<std::string, int64_t>>
parseParam(llvm::StringRef Text);

/// The VALUE of a --param (see parseParam), or nullopt if it is not one.
std::optional<int64_t> parseParamValue(llvm::StringRef Value);

} // namespace roofline

#endif
