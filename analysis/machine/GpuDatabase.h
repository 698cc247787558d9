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
///         "registers_per_sm": 65536,        // optional, 32-bit registers
///         "peak_tflops": {                  // dense TFLOP/s (TOPS for int)
///           "cuda_core":   { "fp32": 67, ... },
///           "tensor_core": { "bf16": 989.4, ... }
///         },
///         "sources": [ "..." ],             // optional
///         "notes": "...",                   // optional
///         "l1_shared_per_sm_bytes": 262144, // optional
///         "l2_bandwidth_gbs": 5200,         // optional, decimal GB/s
///         "sm_clock_mhz": 1980,             // optional
///         "pipes": {                        // optional
///           "clock_mhz": 1980,              // clock of the per-clock rates
///           "tensor_clock_mhz": 1830,       // optional, see below
///           "per_sm_per_clock": {
///             "fp32": 128, ...,             // thread-lane results
///             "issue": 4, "lsu": 1,         // warp instructions
///             "shared_bytes": 128,          // bytes
///             "tensor": { "fp16": 4096, ... } // dense FLOP
///           },
///           "dram_achievable_fraction": 0.887, // optional, in (0, 1]
///           "latency_cycles": {             // optional, SM clock cycles
///             "dram": 700, "l2": 291, "l1": 40, "shared": 29, "fp32": 4,
///             "mma": 32, "tcgen05_mma": 11
///           },
///           "sources": { "clock_mhz": "...", "fp32": "...",
///                        "tensor.fp16": "...", "latency_cycles.dram": "...",
///                        ... }
///         }
///       }
///     ]
///   }
/// \endcode
///
/// All keys other than "sources", "notes" and those marked optional are
/// required; "cuda_core" and "tensor_core" may each be omitted or empty, but
/// a GPU needs at least one peak. Unknown keys are rejected so that typos do
/// not go unnoticed. Precision keys are one of: fp64, fp32, tf32, fp16, bf16,
/// fp8, fp6, fp4, int8, int4; "tensor_core" also takes fp16_fp32acc and
/// fp8_fp32acc (below).
///
/// "pipes" holds published per-SM, per-clock throughputs (docs/gpu-data.md).
/// In it, "clock_mhz", "per_sm_per_clock" and "sources" are required and
/// every figure is optional (a figure no source gives is left out), but each
/// figure present needs an entry in "pipes.sources" under its key
/// ("clock_mhz", "fp32", "tensor.fp16", "dram_achievable_fraction", ...), and
/// every source must name a figure that is present; rates must be positive.
/// per_sm_per_clock keys: fp32, fp64, fp16, bf16, int32, mufu, conversion,
/// shuffle (results per SM per clock, one per thread lane; half2 counts 2),
/// issue, lsu (warp instructions), shared_bytes, l1_bytes (bytes). Tensor keys
/// (dense FLOP or integer OP): fp64, tf32, fp16, fp16_fp32acc, bf16, fp8,
/// fp8_fp32acc, int8, int4, fp4. In both the tensor peaks and these,
/// "fp16" and "fp8" are the FP16-accumulate rates and the "_fp32acc" keys
/// the FP32-accumulate ones, which GeForce parts run at half rate; a part
/// without an "_fp32acc" key runs both at one rate, and peak() and
/// pipeRate() then answer "fp16_fp32acc" with "fp16" (bf16 and tf32 always
/// accumulate in FP32, int8 in INT32: one key each).
/// tensor_clock_mhz is the clock of the vendor's tensor peaks where it
/// is below clock_mhz (H100: 1830 vs 1980 MHz); it applies to every tensor key
/// but fp64, whose peak NVIDIA figures at clock_mhz.
///
/// "latency_cycles" holds published latencies, in SM clock cycles, for a
/// Little's-law bound: dram, l2, l1 (a dependent load served by that
/// level), shared (a dependent shared-memory load), fp32 (a dependent FFMA),
/// mma (a dependent mma.sync) and tcgen05_mma. Their sources are under
/// "latency_cycles.<key>"; a source that begins with "placeholder" marks a
/// figure the references give as a stand-in until one is measured
/// (PipeRates::isPlaceholder). "registers_per_sm" is the size of an SM's
/// register file; residency leaves registers out where it is absent.
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

/// Published per-SM, per-clock throughputs of a GPU's execution resources
/// (the "pipes" object), each with its source. They are copied from the CUDA
/// guide, whitepapers and microbenchmark papers, never fitted to our own
/// measurements, so a predicted time stays a bound and not a calibration.
struct PipeRates {
  /// SM clock in Hz the per-clock figures are multiplied by (0: the GPU has
  /// no "pipes" object).
  double Clock = 0;
  /// Clock in Hz at which the vendor figures its tensor peaks, where that
  /// is not Clock (0: Clock). Not used for the "fp64" tensor figure.
  double TensorClock = 0;
  /// Figure key ("fp32", "issue", "shared_bytes", ...) -> rate per SM per
  /// clock, in the key's unit (thread-lane results, warp instructions or
  /// bytes).
  std::map<std::string, double> PerSMPerClock;
  /// Tensor input type ("fp16", "fp16_fp32acc", ...) -> dense FLOP (integer
  /// OP for int8) per SM per clock.
  std::map<std::string, double> TensorPerSMPerClock;
  /// Published measured share of the datasheet DRAM bandwidth that
  /// streaming kernels reach, if one was found.
  std::optional<double> DramAchievableFraction;
  /// Latency key ("dram", "l2", "l1", "shared", "fp32", "mma",
  /// "tcgen05_mma") -> published latency in SM clock cycles.
  std::map<std::string, double> LatencyCycles;
  /// Figure key ("clock_mhz", "fp32", "tensor.fp16", ...) -> its source.
  std::map<std::string, std::string> Sources;

  bool empty() const { return Clock == 0; }
  /// The clock in Hz that the tensor figure \p Type is figured at.
  double tensorClock(llvm::StringRef Type) const;
  /// The published latency in cycles of \p Key ("dram", "mma", ...), if the
  /// data has one.
  std::optional<double> latencyCycles(llvm::StringRef Key) const;
  /// Whether the source of the figure \p SourceKey ("latency_cycles.fp32")
  /// marks it as a placeholder rather than a measurement, so that a report
  /// built on it can say so.
  bool isPlaceholder(llvm::StringRef SourceKey) const;
};

/// One GPU model. All rates are in SI base units: bytes per second and
/// FLOP (or integer OP) per second.
struct GpuSpec {
  std::string Id, Name, Arch; // Arch like "sm_90".
  unsigned SMs = 0;
  double MemoryGB = 0;
  double DramBandwidth = 0; // Bytes per second (decimal GB/s * 1e9).
  uint64_t L2Bytes = 0, SharedPerSMBytes = 0, SharedPerBlockBytes = 0;
  unsigned MaxThreadsPerSM = 0, MaxBlocksPerSM = 0;
  /// 32-bit registers per SM (0: not in the data; registers then do not
  /// limit residency).
  unsigned RegistersPerSM = 0;
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
  PipeRates Pipes;

  /// Peak rate in FLOP/s of \p U at \p Precision (e.g. "bf16"), if known;
  /// a tensor "fp16_fp32acc" or "fp8_fp32acc" the GPU does not list is its
  /// "fp16" or "fp8" peak.
  std::optional<double> peak(ComputeUnit U, llvm::StringRef Precision) const;
  /// Ridge point in FLOP/byte for a unit/precision, if that peak exists.
  std::optional<double> ridge(ComputeUnit U, llvm::StringRef Precision) const;
  /// Whole-GPU rate per second of the pipe figure \p Key ("fp32", "issue",
  /// "shared_bytes", or "tensor.<type>" as in "tensor.fp16"): per SM per
  /// clock x SMs x clock (the tensor clock for tensor figures). The unit is
  /// the figure's per second: thread-lane results, warp instructions,
  /// bytes, or FLOP. None when the GPU has no such figure ("tensor.<type>"
  /// "_fp32acc" falls back to "tensor.<type>" as in peak()).
  std::optional<double> pipeRate(llvm::StringRef Key) const;
};

/// An ordered collection of GPU descriptions with unique ids.
class GpuDatabase {
public:
  GpuDatabase() = default;

  /// Parses the JSON text; errors name SourceName, the GPU id/index and the
  /// bad key (missing required key, wrong type, negative/zero bandwidth or
  /// rate, a pipe figure without a source, duplicate id, id not lower-case
  /// [a-z0-9-]).
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
