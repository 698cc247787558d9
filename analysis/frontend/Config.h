//===- Config.h - Sizes without flags: annotations and config files -*- C++
//-*-===//
//
// A lint run in an editor passes no flags, yet should still get numbers. Two
// sources supply them (flags override both; annotations override the file):
//
//   In-source annotations, in any comment of the analyzed file:
//     // cuda-roofline: param n=16777216
//     // cuda-roofline: launch saxpy=65536/256
//     // cuda-roofline: gpu a100-80gb-sxm
//
//   A `.cuda-roofline.yaml` in the file's directory or any parent:
//     gpu: h100-sxm
//     params:
//       n: 16777216
//       bias: null            # a pointer parameter that is null
//     launches:
//       - "saxpy=65536/256"
//     checks: "roofline-*,-roofline-memory-bound"
//     warnings-as-errors: "roofline-uncoalesced-access"
//     min-reuse: 8            # and the other options of core/Options.def
//     max-kernel-seconds: 10  # with a CONFIG key: thresholds, limits
//     extra-args: ["-DNDEBUG", "-Ithird_party/include"]
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_CONFIG_H
#define CUDA_ROOFLINE_CONFIG_H

#include "LaunchSpec.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct SourceSettings {
  std::string Origin; ///< File the settings came from.
  std::optional<std::string> Gpu;
  std::map<std::string, int64_t> Params;
  /// Source Annotation or Config, Loc where each is written.
  std::vector<KernelLaunch> Launches;
  /// Config files only: the lint settings (check globs), and the other
  /// options of the table (thresholds, limits: key as in core/Options.def,
  /// value as written, in the table's order).
  std::optional<std::string> Checks, WarningsAsErrors;
  std::vector<std::pair<std::string, std::string>> Options;
  /// Config files only: clang arguments appended to every file's compile
  /// command (a macro or include path the build database lacks).
  std::vector<std::string> ExtraArgs;
};

/// Reads `cuda-roofline:` annotations from File's comments (from Text
/// when given: an unsaved buffer).
llvm::Expected<SourceSettings>
readAnnotations(const std::string &File, const std::string *Text = nullptr);

/// Reads one config file (--config-file).
llvm::Expected<SourceSettings> readConfigFile(const std::string &Path);

/// Finds and reads the nearest .cuda-roofline.yaml above File, if any.
llvm::Expected<std::optional<SourceSettings>>
readConfigFor(const std::string &File);

} // namespace roofline

#endif
