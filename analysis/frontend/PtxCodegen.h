//===- PtxCodegen.h - The analyzed module as the back end compiles it -*- C++
//-*-===//
//
// Instruction issue and pipe work are counted on the PTX the NVPTX back end
// makes of the analyzed module, not on its IR: instruction selection fuses,
// splits and drops IR instructions. Each basic block is marked with an
// inline-asm comment before code generation, so that the PTX instructions
// between two markers are the machine code of one IR block, whose executions
// the counting engine already knows (docs/counting.md, "Instructions").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_PTXCODEGEN_H
#define CUDA_ROOFLINE_PTXCODEGEN_H

#include "BlockMarkers.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Passes/PassBuilder.h"

namespace llvm {
class BasicBlock;
class Instruction;
class Module;
class TargetMachine;
} // namespace llvm

namespace roofline {

struct MarkedPtx {
  std::string Ptx;
  /// The unit as a build compiles it (clang's -O3 pipeline on the module
  /// before the analysis pipeline), empty without one: what ptxas
  /// allocates registers for. Its function names -> the module's.
  std::string BuiltPtx;
  std::map<std::string, std::string> BuiltRenamed;
  /// Marker number -> the block of the analyzed module it marks.
  std::vector<const llvm::BasicBlock *> Blocks;
  /// PTX name -> the analyzed module's, for the functions the PTX names
  /// otherwise (dropNames: identifiers PTX cannot spell).
  std::map<std::string, std::string> Renamed;
  /// The analyzed module's shared loads and stores the back end merges
  /// into wider instructions, with that width (MergedWidths.h).
  std::map<const llvm::Instruction *, unsigned> MergedWidths;
};

/// Runs on M the module pipeline Build makes with a PassBuilder for TM (may
/// be null) and PTO, its analyses registered: what the analysis pipeline and
/// the unrolling before code generation share.
void runPipeline(
    llvm::Module &M, llvm::TargetMachine *TM, llvm::PipelineTuningOptions PTO,
    llvm::function_ref<llvm::ModulePassManager(llvm::PassBuilder &)> Build);

/// Renames the unroll hints of M's loops (`#pragma unroll`:
/// "llvm.loop.unroll.*") to names the optimizer ignores (Hide), or back.
void renameUnrollHints(llvm::Module &M, bool Hide);

/// Compiles a copy of M (left unchanged) to PTX for Arch ("sm_90") with the
/// NVPTX back end, every block of a defined function starting with its
/// marker. An error says why the back end produced nothing. With Built
/// (CompiledUnit::Built), the PTX a build makes of it too (BuiltPtx).
/// AdjustCopy, if given, changes the copy before code generation (what the
/// back end cannot know of the build: BuiltMath.h).
llvm::Expected<MarkedPtx>
emitMarkedPtx(const llvm::Module &M, const std::string &Arch,
              const llvm::Module *Built = nullptr,
              llvm::function_ref<void(llvm::Module &)> AdjustCopy = {});

} // namespace roofline

#endif
