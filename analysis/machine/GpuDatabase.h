//===- GpuDatabase.h - GPU peak figures for roofline analysis ---*- C++ -*-===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Loads GPU descriptions (SM count, DRAM bandwidth, cache and shared-memory
/// sizes, peak FLOP rates per compute unit and precision) from JSON.
///
/// The JSON schema (schema_version 1) is:
/// \code
///   {
///     "schema_version": 1,
///     "gpus": [
///       {
///         "id": "h100-sxm",                 // lower-case [a-z0-9-]
///         "name": "NVIDIA H100 SXM5 80GB",
///         "arch": "sm_90",                  // sm_<digits>[letters]
///         "sms": 132,
///         "memory_gb": 80,
///         "dram_bandwidth_gbs": 3350,       // decimal GB/s
///         "l2_bytes": 52428800,
///         "shared_per_sm_bytes": 233472,
///         "shared_per_block_bytes": 232448,
///         "max_threads_per_sm": 2048,
///         "max_blocks_per_sm": 32,
///         "peak_tflops": {                  // dense TFLOP/s (TOPS for int)
///           "cuda_core":   { "fp32": 67, ... },
///           "tensor_core": { "bf16": 989.4, ... }
///         },
///         "sources": [ "..." ],             // optional
///         "notes": "..."                    // optional
///       }
///     ]
///   }
/// \endcode
///
/// All keys other than "sources" and "notes" are required; "cuda_core" and
/// "tensor_core" may each be omitted or empty, but a GPU needs at least one
/// peak. Unknown keys are rejected so that typos do not go unnoticed.
/// Precision keys are one of: fp64, fp32, tf32, fp16, bf16, fp8, fp6, fp4,
/// int8, int4.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_ANALYSIS_GPUDATABASE_H
#define CUDA_ROOFLINE_ANALYSIS_GPUDATABASE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// The target when no option, annotation or config file names one (the
/// option table's default for --gpu, which a unit test keeps equal).
constexpr const char *DefaultGpu = "h100-sxm";

/// The kind of execution unit a peak FLOP rate refers to.
enum class ComputeUnit { CudaCore, TensorCore };

/// Returns the JSON key of \p U: "cuda_core" or "tensor_core".
llvm::StringRef computeUnitName(ComputeUnit U);

/// One GPU model. All rates are in SI base units: bytes per second and
/// FLOP (or integer OP) per second.
struct GpuSpec {
  std::string Id, Name, Arch; // Arch like "sm_90".
  unsigned SMs = 0;
  double MemoryGB = 0;
  double DramBandwidth = 0; // Bytes per second (decimal GB/s * 1e9).
  uint64_t L2Bytes = 0, SharedPerSMBytes = 0, SharedPerBlockBytes = 0;
  unsigned MaxThreadsPerSM = 0, MaxBlocksPerSM = 0;
  /// Unified L1 data cache + shared memory per SM (0: not in the data):
  /// what is left of it after the resident blocks' shared memory is L1.
  uint64_t L1SharedPerSMBytes = 0;
  /// Sustained L2 read bandwidth in bytes per second, where a source gives
  /// one (0: none; consumers then bound L2 time with DRAM bandwidth).
  double L2Bandwidth = 0;
  /// Boost SM clock in Hz (0: not in the data): per-clock rates (shared
  /// memory wavefronts, LSU requests) become times with it.
  double SMClock = 0;
  std::map<std::string, double> CudaCorePeak;   // Precision -> FLOP/s.
  std::map<std::string, double> TensorCorePeak; // Precision -> FLOP/s.
  std::vector<std::string> Sources;
  std::string Notes;

  /// Peak rate in FLOP/s of \p U at \p Precision (e.g. "bf16"), if known.
  std::optional<double> peak(ComputeUnit U, llvm::StringRef Precision) const;
  /// Ridge point in FLOP/byte for a unit/precision, if that peak exists.
  std::optional<double> ridge(ComputeUnit U, llvm::StringRef Precision) const;
};

/// An ordered collection of GPU descriptions with unique ids.
class GpuDatabase {
public:
  GpuDatabase() = default;

  /// Parses the JSON text; errors name SourceName, the GPU id/index and the
  /// bad key (missing required key, wrong type, negative/zero bandwidth,
  /// duplicate id, id not lower-case [a-z0-9-]).
  static llvm::Expected<GpuDatabase> parse(llvm::StringRef JsonText,
                                           llvm::StringRef SourceName);

  /// The database embedded in the binary (analysis/machine/data/gpus.json).
  static const GpuDatabase &builtin();

  /// The built-in database with the GPUs of each file merged in, in order
  /// (--gpu-file); an error names a file that cannot be read or parsed.
  static llvm::Expected<GpuDatabase>
  withFiles(llvm::ArrayRef<std::string> Files);

  /// Adds the GPUs of Other; an id that already exists is replaced (user
  /// files override). New ids are appended in Other's order.
  void merge(const GpuDatabase &Other);

  /// Looks up a GPU by id. Ids are lower-case, so the lookup ignores case
  /// ("H100-SXM" finds "h100-sxm"). Returns null if there is no such GPU.
  const GpuSpec *find(llvm::StringRef Id) const;

  /// All GPUs, in file order (merged GPUs that are new come last).
  const std::vector<GpuSpec> &all() const { return Gpus; }

private:
  std::vector<GpuSpec> Gpus;
};

} // namespace roofline

#endif // CUDA_ROOFLINE_ANALYSIS_GPUDATABASE_H
