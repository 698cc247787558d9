//===- DeviceCompiler.h - CUDA source to optimized device IR ---*- C++ -*-===//
//
// Compiles the device side of a CUDA translation unit in-process and runs
// the analysis pipeline on it: O3 without loop unrolling or vectorization,
// whatever -O level the user's flags carry, with libdevice left unlinked so
// that math functions stay visible as calls (`__nv_expf`) and are counted as
// special functions rather than as the FMAs that implement them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_DEVICECOMPILER_H
#define CUDA_ROOFLINE_DEVICECOMPILER_H

#include "ErrorIsolation.h"
#include "HostLaunches.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
}

namespace roofline {

/// A kernel template specialization to instantiate, for a launch of a
/// kernel that the file never launches itself.
struct Instantiation {
  std::string Kernel; ///< The template's name ("tiled").
  std::string Args;   ///< Its template arguments ("64, 8").
  /// The launch that asks for it, as messages name it ("--launch
  /// 'tiled<64,8>=64,64/256'"): a failed instantiation blames it.
  std::string Origin;
  std::string spelling() const { return Kernel + "<" + Args + ">"; }
};

struct CompileOptions {
  std::string Arch = "sm_90";
  std::map<std::string, int64_t> Params;
  std::vector<Instantiation> Instantiations;
  std::vector<std::string> ExtraArgs;
  /// The CUDA toolkit to parse with (headers, libdevice); empty: the one
  /// the tool was built against.
  std::string CudaPath;
  /// Pre-include the nvcc-compatibility prelude (analysis/frontend/Prelude.h).
  bool Prelude = true;
  bool DumpIR = false; ///< Print the optimized module to stderr (debugging).
  /// Where clang's diagnostics go (default stderr): a parallel run buffers
  /// each file's and prints them in order.
  llvm::raw_ostream *Diagnostics = nullptr;
  /// The main file's text when it is not the file on disk (an editor's
  /// unsaved buffer); it must outlive the compile.
  const std::string *Contents = nullptr;
  /// The compile command is the user's own (flags after `--`, a lint
  /// front-end's compilation), not a file of the repository's.
  bool CommandFromUser = false;
  /// Let flags from the repository load or run code (UnsafeFlags.h).
  bool AllowUnsafeFlags = false;
};

struct CompiledUnit {
  std::string File;
  std::unique_ptr<llvm::LLVMContext> Context;
  std::unique_ptr<llvm::Module> Module;
  /// The module as clang generated it, before the analysis pipeline: what
  /// a build optimizes, and ptxas allocates registers for (PtxCodegen.h).
  std::unique_ptr<llvm::Module> Built;
  HostFacts Facts;
  /// What clang's errors cost: kernels and functions not analyzed.
  std::vector<NotAnalyzed> Lost;
};

/// Compiles File. On failure clang's diagnostics have been printed to
/// stderr and the error carries a one-line summary.
llvm::Expected<CompiledUnit>
compileDeviceSide(const clang::tooling::CompilationDatabase &DB,
                  const std::string &File, const CompileOptions &Opts);

/// Runs the analysis optimization pipeline (exposed for tests).
/// Maps: the boxes of the TMA tensor maps the host code builds.
void optimizeForAnalysis(llvm::Module &M, const std::string &Arch,
                         const TensorMapBoxes &Maps = {});

} // namespace roofline

#endif
