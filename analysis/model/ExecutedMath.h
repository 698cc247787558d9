//===- ExecutedMath.h - FLOPs the hardware executes for math ----*- C++ -*-===//
//
// The algorithmic count says a division is 1 FLOP and expf is a special
// function; the profiler counts the FADD, FMUL and FFMA instructions (and
// the XU-pipe MUFU/FCHK instructions) they execute. Two sources give those:
//
// - an instruction ptxas expands (division, square root, reciprocal,
//   approximate transcendentals) is looked up by its PTX name in the
//   expansion table of the GPU data (analysis/machine/Expansions.h);
// - a libdevice function (__nv_expf) is run: its IR, with __nvvm_reflect
//   answered as the compile would (flush-to-zero, precise square root) and
//   folded, is interpreted on ordinary arguments, and the floating-point
//   instructions that contribute to its result on that path are counted
//   (an operand computed only for a select's other arm is predicated off in
//   SASS, and not counted); a multiply whose every user is an add is fused
//   into those adds, as ptxas does.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_EXECUTEDMATH_H
#define CUDA_ROOFLINE_EXECUTEDMATH_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace roofline {

/// What a piece of code executes: FLOPs per precision as the profiler
/// counts them (FADD, FMUL 1; FFMA 2) and XU-pipe instructions.
struct ExecutedCost {
  std::map<std::string, int64_t> Flops;
  int64_t Xu = 0;
  ExecutedCost &operator+=(const ExecutedCost &O);
};

/// How the code was compiled, as far as the math it executes depends on it.
struct MathMode {
  bool Ftz = false;    ///< Denormals flushed (__CUDA_FTZ).
  bool Approx = false; ///< nvcc's -use_fast_math: approximate division,
                       ///< square root and transcendentals.
  unsigned Arch = 0;   ///< __CUDA_ARCH (e.g. 900).
};

/// The mode of the device code of M (its module flags, set by the device
/// compiler) for function F.
MathMode mathModeOf(const llvm::Function &F);

/// The PTX instruction an IR instruction becomes when ptxas expands it
/// ("div.rn.f32", "sqrt.approx.f32", ...), or "" when it is not one.
std::string expandedPtxOp(const llvm::Instruction &I, const MathMode &Mode);

/// What the expanded instruction Op executes (from the expansion table),
/// or an error naming the op the table lacks.
llvm::Expected<ExecutedCost> expansionCost(llvm::StringRef Op);

/// What one call of the libdevice function Name executes on ordinary
/// arguments, in the mode; cached. An error says why it cannot be counted
/// (no libdevice, an instruction the interpreter does not know, a path
/// longer than its step limit).
llvm::Expected<ExecutedCost> libdeviceCallCost(llvm::StringRef Name,
                                               const MathMode &Mode,
                                               llvm::StringRef LibdevicePath);

/// How often each block ran, in a function and those it called.
using BlockRuns = std::map<const llvm::BasicBlock *, int64_t>;

/// Runs the libdevice function Name as libdeviceCallCost does and hands Use
/// the function run and how often each of its blocks ran. The library is
/// shared by the files analyzed in parallel: Use runs under its lock and
/// keeps nothing of what it is handed.
llvm::Error withLibdeviceRun(
    llvm::StringRef Name, const MathMode &Mode, llvm::StringRef LibdevicePath,
    llvm::function_ref<llvm::Error(const llvm::Function &, const BlockRuns &)>
        Use);

/// The libdevice bitcode the device compiler used for M ("" if none).
std::string libdevicePathOf(const llvm::Module &M);

/// Adds to Counts (the algorithmic counts of I, "flops.<prec>" and the
/// rest, as the classifier made them) the FLOPs I executes,
/// "flops_executed.<prec>". False when they cannot be known (library math
/// that could not be run, an expansion the table lacks); Why says why, and
/// the counters are created so that they read as unknown. Contention is
/// set for work that depends on how threads contend (a float atomic on
/// shared memory, counted as one attempt): the count stands, as the least
/// the instruction executes.
bool addExecutedFlops(const llvm::Instruction &I,
                      std::map<std::string, int64_t> &Counts, std::string &Why,
                      std::string &Contention);

/// Runs F (already prepared: reflect answered, folded) on ordinary
/// arguments and counts what it executes (exposed for tests).
llvm::Expected<ExecutedCost> interpretForCost(const llvm::Function &F,
                                              const MathMode &Mode);

} // namespace roofline

#endif
