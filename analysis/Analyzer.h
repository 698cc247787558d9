//===- Analyzer.h - One file in, kernel reports out -------------*- C++ -*-===//
//
// The library's entry point, shared by every front-end: compile the device
// side, build each kernel's model, resolve its launches (flags, in-source
// annotations, config file, <<<>>> call sites), count, and derive metrics.
// Emitters only format what this returns.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_ANALYZER_H
#define CUDA_ROOFLINE_ANALYZER_H

#include "Findings.h"
#include "GpuDatabase.h"
#include "HostLaunches.h"
#include "KernelCounts.h"
#include "LaunchSpec.h"
#include "Metrics.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
}

namespace roofline {

struct AnalyzerOptions {
  std::optional<std::string> GpuId; ///< --gpu; else annotation/config/default.
  std::string Arch;                 ///< --arch; empty: the GPU's.
  std::map<std::string, int64_t> Params;
  std::vector<LaunchOverride> Launches;
  std::string KernelFilter;
  std::vector<std::string> ExtraArgs;
  FindingOptions Findings;
  bool DumpModel = false; ///< Print each kernel model to stderr (debugging).
  bool DumpIR = false;    ///< Print the optimized device IR (debugging).
};

struct KernelReport {
  KernelDecl Decl;
  LaunchInfo Launch;
  std::map<std::string, int64_t> Params; ///< Kernel parameter values used.
  KernelCounts Counts;
  RooflineMetrics Metrics;
  std::vector<AccessInfo> Accesses;
  std::vector<Finding> Findings;
};

struct FileReport {
  std::string File;
  const GpuSpec *Gpu = nullptr;
  std::vector<KernelReport> Kernels;
  /// Kernels named by --launch/annotation/config launches that matched.
  std::set<std::string> MatchedLaunches;
  /// Kernel templates the file never instantiates (name, location).
  std::vector<std::pair<std::string, SourceLoc>> UninstantiatedTemplates;
};

constexpr const char *DefaultGpu = "h100-sxm";

class Analyzer {
public:
  Analyzer(const clang::tooling::CompilationDatabase &DB,
           const GpuDatabase &Gpus, AnalyzerOptions Opts);
  llvm::Expected<FileReport> analyzeFile(const std::string &File);

private:
  const clang::tooling::CompilationDatabase &DB;
  const GpuDatabase &Gpus;
  AnalyzerOptions Opts;
};

} // namespace roofline

#endif
