//===- Checks.cpp - Check ids and their documentation ---------------------===//
//
// The only place a check id is written. The texts follow docs/findings.md
// and each check's page (docs/checks/ID.md); keep them in step.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "CheckGlob.h"

#include "llvm/Support/ErrorHandling.h"

using namespace roofline;

static const CheckInfo Checks[] = {
    {CheckId::UncoalescedAccess, "roofline-uncoalesced-access",
     "Global memory access is not coalesced across the warp",
     "A global load or store whose warp-wide request fetches more 32-byte "
     "sectors than its bytes need, with more than --min-efficiency-loss "
     "(default 0.5) of the fetched sectors wasted. Addresses are those of "
     "the 32 lanes of warp 0 of block 0 in the first iteration of every "
     "enclosing loop; the finding gives the sectors per request, the "
     "minimum that would do and the fraction of fetched bytes used.",
     "Make threadIdx.x index the contiguous dimension of the array, or load "
     "the data into shared memory with coalesced accesses and read it "
     "there. See docs/findings.md, \"Global accesses: sectors per "
     "request\"."},
    {CheckId::GlobalReuse, "roofline-global-reuse",
     "Global data re-read by the threads of a block instead of tiled in "
     "shared memory",
     "A global load, not staged in shared memory, whose elements the warps "
     "of one block read at least --min-reuse times each (default 4), and "
     "read again after the block has loaded more than its share of L1. The "
     "finding gives that factor, the factor over the grid, the L2 bytes a "
     "shared-memory tile would save and their time at the GPU's L2 "
     "bandwidth (at its DRAM bandwidth when the GPU data has none), "
     "reported from --min-reuse-cost of the speed of light (default 0.05).",
     "Load the block's elements into a __shared__ tile once per step, "
     "synchronize with __syncthreads(), and read them from the tile; when a "
     "loop walks them again, make it the inner loop. See docs/findings.md, "
     "\"Reuse of global loads\"."},
    {CheckId::BankConflict, "roofline-bank-conflict",
     "Shared memory access has a bank conflict",
     "A shared-memory load or store whose lanes access different 4-byte "
     "words of the same bank in one pass, so the request takes more "
     "wavefronts than it needs. Fires from --min-conflict-ways ways "
     "(default 2); the note names the bank and the colliding lanes, and "
     "whether they collide across rows of a 2-D array or within one row.",
     "Across rows, pad each row by the number of elements the note gives "
     "(e.g. [32][33] for a [32][32] tile), or swizzle the column with the "
     "row; within a row padding cannot help: access each thread's "
     "consecutive elements as one vector, or have consecutive lanes access "
     "consecutive elements. The note's fix is checked by recomputing the "
     "request with it. See docs/findings.md, \"Shared accesses: bank "
     "conflicts\"."},
    {CheckId::UnvectorizedAccess, "roofline-unvectorized-access",
     "Consecutive elements accessed one at a time where one vector access "
     "would do",
     "A thread reads or writes consecutive elements one at a time in a short "
     "counted loop (2 to 16 trips), and every active lane's first element "
     "is aligned for an 8- or 16-byte access: one vector access would make "
     "several times fewer requests. Loops over a problem size are left to "
     "tiling and are not reported.",
     "Access the run as one vector: reinterpret_cast the pointer to "
     "float2/float4 (int2/int4, uint2/uint4) and load or store it once. See "
     "docs/findings.md, \"Vector width\"."},
    {CheckId::MemoryBound, "roofline-memory-bound",
     "Kernel is memory-bound far below the ridge point",
     "The kernel's speed of light is set by DRAM bytes, and even its "
     "best-case arithmetic intensity (FLOPs over compulsory bytes, every "
     "byte moved once) is below --memory-bound-fraction (default 0.25) of "
     "the ridge point of the unit its FLOPs run on; without sizes, at "
     "every size of a sweep of the missing ones. Kernels without "
     "floating-point work (copies, transposes) are not reported.",
     "Fuse the kernel with the kernel that produces or consumes its data, "
     "move narrower types (bf16/fp16 halve the bytes), or reuse data on "
     "chip. See docs/findings.md, \"Kernel-level checks\".",
     "warning", /*NoteCanBeError=*/false, /*KernelLevel=*/true},
    {CheckId::KernelSummary, "roofline-kernel-summary",
     "Roofline summary of a kernel",
     "A note at the kernel with its speed of light on the target GPU, "
     "whether it is memory-, compute- or launch-overhead-bound, its "
     "arithmetic intensity range and the ridge point of the unit its FLOPs "
     "run on. Without sizes it says that only per-thread counts are known.",
     "Informational: compare the speed of light with the measured time to "
     "see how far the kernel is from its roofline. Turn the note off with "
     "--kernel-summary=false. See docs/findings.md, \"Kernel-level "
     "checks\", and docs/counting.md.",
     "note", /*NoteCanBeError=*/false, /*KernelLevel=*/true},
    // Last: SARIF rule indices of the checks above stay as they were.
    {CheckId::NotAnalyzed, "roofline-not-analyzed",
     "Kernel or function not analyzed because clang rejected code",
     "Clang rejected a function or declaration of the file. Every kernel "
     "that does not depend on it is analyzed as usual; this names each "
     "kernel that does (it calls the function, uses the variable or type), "
     "each host or device function with an error, and any other rejected "
     "declaration, with clang's first error and its location. A host "
     "function clang rejected contributes no launches.",
     "Fix the code clang rejects, or make it nvcc-only behind "
     "`#ifndef __clang__` if it compiles with nvcc. --strict-parse makes "
     "any rejected code fail the file. See docs/findings.md, \"Code clang "
     "rejects\"."},
    {CheckId::MissingSize, "roofline-missing-size",
     "Kernel without the sizes its counts need",
     "A note at the kernel when it has no launch configuration the analysis "
     "can evaluate (no <<<>>> call site in the file, or one whose sizes "
     "depend on a value that was not given), or when it has one but a "
     "kernel parameter its counts or accesses need has no value. Its counts "
     "are then per-thread formulas or unknown, it has no speed of light, "
     "and the findings that need sizes are not made. The message says what "
     "is missing and how to give it.",
     "Give the missing values: --param NAME=VALUE or --launch "
     "'KERNEL=GRID/BLOCK', an annotation in the file (// cuda-roofline: "
     "param n=4096), or a .cuda-roofline.yaml. It is a note; "
     "--warnings-as-errors=roofline-missing-size (named in full) makes it "
     "an error. See docs/findings.md, \"Kernels without sizes\".",
     "note", /*NoteCanBeError=*/true, /*KernelLevel=*/true},
};

llvm::ArrayRef<CheckInfo> roofline::allChecks() { return Checks; }

bool roofline::promotesToError(const CheckGlob &WarningsAsErrors,
                               llvm::StringRef Id, llvm::StringRef Level) {
  if (Level == "warning")
    return WarningsAsErrors.matches(Id);
  if (Level != "note")
    return false;
  const CheckInfo *C = findCheck(Id);
  return C && C->NoteCanBeError && WarningsAsErrors.namesInFull(Id);
}

llvm::Error roofline::checkGlobEnablesSome(const CheckGlob &Globs,
                                           llvm::StringRef Text) {
  std::string Ids;
  for (const CheckInfo &C : Checks) {
    if (Globs.matches(C.Id))
      return llvm::Error::success();
    Ids += (Ids.empty() ? "" : ", ") + C.Id.str();
  }
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "'" + Text + "' enables no check (the checks: " + Ids + ")");
}

const CheckInfo *roofline::findCheck(llvm::StringRef Id) {
  for (const CheckInfo &C : Checks)
    if (C.Id == Id)
      return &C;
  return nullptr;
}

const CheckInfo &roofline::checkInfo(CheckId Which) {
  for (const CheckInfo &C : Checks)
    if (C.Which == Which)
      return C;
  llvm_unreachable("every check is registered");
}

bool roofline::kernelLevelCheck(llvm::StringRef Id) {
  const CheckInfo *C = findCheck(Id);
  return C && C->KernelLevel;
}
