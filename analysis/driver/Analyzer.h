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

#include "Config.h"
#include "DeviceCompiler.h"
#include "Report.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Preprocessor;
namespace tooling {
class CompilationDatabase;
}
} // namespace clang

namespace roofline {

/// What the options, the file's annotations and its config file resolve to
/// (in that order of precedence).
struct FileSettings {
  const GpuSpec *Gpu = nullptr;
  std::map<std::string, int64_t> Params;
  /// Launches that replace call sites, by source in order of precedence
  /// (flags, annotations, config file). Precedence is per kernel: the first
  /// source with a launch of a kernel gives all of that kernel's launches,
  /// whatever the others say about other kernels.
  std::vector<std::vector<KernelLaunch>> Launches;
  CompileOptions Compile;
  FindingOptions Findings;
  /// The limits (AnalyzerOptions'), the config file's where the command
  /// line gave none; settingsFor always sets them.
  double KernelSeconds = 0, KernelMemoryMiB = 0, FileSeconds = 0;
  /// The config file's check globs (flags take precedence in the CLI).
  std::optional<std::string> Checks, WarningsAsErrors;
  std::string ConfigOrigin; ///< The config file used, if any.
};

class Analyzer {
public:
  Analyzer(const GpuDatabase &Gpus, AnalyzerOptions Opts);

  llvm::Expected<FileSettings> settingsFor(const std::string &File) const;
  /// Compiles File's device side with its command from DB and analyzes it.
  llvm::Expected<FileReport>
  analyzeFile(const clang::tooling::CompilationDatabase &DB,
              const std::string &File);
  /// Analyzes the device-side AST a lint front-end holds (its main file's
  /// settings apply).
  /// Errors: clang's errors in the unit (an ErrorRecorder's), so that
  /// the kernels that do not depend on them are analyzed.
  llvm::Expected<FileReport>
  analyzeAST(clang::ASTContext &Ctx, clang::Preprocessor &PP,
             const std::vector<ClangError> &Errors = {});
  /// Analyzes a compiled unit (File is its main file).
  llvm::Expected<FileReport>
  analyzeUnit(const std::string &File, const FileSettings &S, CompiledUnit &CU);

private:
  const GpuDatabase &Gpus;
  AnalyzerOptions Opts;
};

} // namespace roofline

#endif
