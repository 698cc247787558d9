//===- Counters.h - The names of the counts ---------------------*- C++ -*-===//
//
// The operation classifier produces counts under these names, the engine
// totals them, the metrics and checks read them and the emitters print them
// (JSON as reportKey(): '.' becomes '_'). They are written here once; the
// meaning of each is in docs/counting.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_COUNTERS_H
#define CUDA_ROOFLINE_COUNTERS_H

namespace roofline {
namespace counter {

/// Per precision: FLOPs "flops.<prec>" (tensor-core MMAs as
/// "flops.tensor_<prec>"), divisions "div.<prec>", and special functions
/// "special.<kind>".
constexpr const char *FlopsPrefix = "flops.";
constexpr const char *TensorFlopsPrefix = "flops.tensor_";
constexpr const char *DivPrefix = "div.";
constexpr const char *SpecialPrefix = "special.";
/// The part before the '.' of the per-precision counters above.
constexpr const char *FlopsFamily = "flops";
constexpr const char *DivFamily = "div";
constexpr const char *SpecialFamily = "special";

/// Per precision: the FLOPs the SASS executes as the profiler counts them
/// (FADD, FMUL 1; FFMA 2): divisions, square roots and library math
/// expanded, multiplies fused as the back end fuses them.
constexpr const char *ExecutedFlopsPrefix = "flops_executed.";
constexpr const char *ExecutedFlopsFamily = "flops_executed";

/// Totals over the per-precision counters.
constexpr const char *FlopsTotal = "flops_total";
constexpr const char *Divisions = "divisions";

/// Global memory: requests (warp-level instructions per thread) and bytes.
constexpr const char *GlobalLoads = "global.loads";
constexpr const char *GlobalLoadBytes = "global.load_bytes";
constexpr const char *GlobalStores = "global.stores";
constexpr const char *GlobalStoreBytes = "global.store_bytes";
constexpr const char *GlobalPrefix = "global.";

/// Shared memory bytes, their total, and shared atomics.
constexpr const char *SharedLoadBytes = "shared.load_bytes";
constexpr const char *SharedStoreBytes = "shared.store_bytes";
constexpr const char *SharedBytes = "shared_bytes";
constexpr const char *SharedAtomics = "shared.atomics";
constexpr const char *SharedPrefix = "shared.";

/// Global atomics and their bytes.
constexpr const char *Atomics = "atomics";
constexpr const char *AtomicBytes = "atomic_bytes";

/// Machine instructions per thread, by the pipe that executes them, counted
/// on the PTX the back end makes (MachineInstructions.h): "inst.issue" is
/// every instruction (what the schedulers issue), the others its classes.
/// They are not FLOPs or bytes: the report keeps them out of the counter
/// table and prices them per pipe (Prediction.h).
constexpr const char *InstPrefix = "inst.";
constexpr const char *InstIssue = "inst.issue";
constexpr const char *InstFp32 = "inst.fp32";      ///< FADD, FMUL, FFMA.
constexpr const char *InstFp64 = "inst.fp64";      ///< DADD, DMUL, DFMA.
constexpr const char *InstFp16 = "inst.fp16";      ///< Results: HFMA2 is 2.
constexpr const char *InstBf16 = "inst.bf16";      ///< Results, as fp16.
constexpr const char *InstIntMad = "inst.int_mad"; ///< IMAD (the FMA pipe).
constexpr const char *InstAlu = "inst.alu";        ///< Integer and logic.
constexpr const char *InstMufu = "inst.mufu";      ///< MUFU (XU pipe).
constexpr const char *InstConvert = "inst.conversion";
constexpr const char *InstShuffle = "inst.shuffle";
constexpr const char *InstMemory = "inst.memory"; ///< LSU: ld, st, atom.
constexpr const char *InstTensor = "inst.tensor"; ///< mma, wmma.
/// Calls left in the machine code (library math, functions not inlined):
/// issued as one instruction each, their bodies not counted.
constexpr const char *InstCall = "inst.call";
/// FMAs of every floating-point type among the above (a yardstick: work
/// "per FMA").
constexpr const char *InstFma = "inst.fma";
/// Round trips to L2 or DRAM a thread waits for its global loads: per
/// region of the machine code, the longest chain of loads that depend on
/// each other (LoadRounds.h; a Little's-law latency bound's work).
constexpr const char *InstLoadRounds = "inst.global_load_rounds";
/// Of those, the rounds a block barrier waits for: their values are used
/// before the barrier that ends their region, so no warp of the block
/// computes past it meanwhile.
constexpr const char *InstBarrierRounds = "inst.barrier_load_rounds";

} // namespace counter
} // namespace roofline

#endif
