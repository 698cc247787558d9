//===- Ptxas.h - Registers and spills per thread from ptxas -v --*- C++ -*-===//
//
// How many blocks an SM holds depends on the registers each thread needs,
// and only the assembler knows that: the PTX names virtual registers,
// ptxas allocates the physical ones (and spills what does not fit to local
// memory). ptxas -v reports them per function on stderr; this runs it on the
// device code's PTX and reads the report, so that residency and a latency
// bound can use the kernel's real register count.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_PTXAS_H
#define CUDA_ROOFLINE_PTXAS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>

namespace roofline {

/// What ptxas -v reports for one function. Registers is 0 where ptxas
/// printed no "Used N registers" line for it: non-entry functions compiled
/// with the whole program (their registers count towards the kernels that
/// call them).
struct PtxasUsage {
  unsigned Registers = 0;
  uint64_t SpillStoreBytes = 0, SpillLoadBytes = 0, StackFrameBytes = 0,
           SharedBytes = 0; ///< Static shared memory (entry functions).
};

/// Parses the stderr of `ptxas -v`: the mangled name of each function (a
/// kernel's from "Compiling entry function 'NAME'", any function's from
/// "Function properties for NAME") -> its usage. Lines it does not know
/// (warnings, compile times, gmem totals) are skipped.
std::map<std::string, PtxasUsage> parsePtxasVerbose(llvm::StringRef Output);

/// The name of the kernel (.entry) whose body holds line Line (1-based) of
/// Ptx; empty when the line is outside every kernel (a .func, a global).
std::string ptxEntryAtLine(llvm::StringRef Ptx, unsigned Line);

/// Ptx without the kernel (.entry) Name, header and body: what is left to
/// assemble once ptxas refused that kernel.
std::string ptxWithoutEntry(llvm::StringRef Ptx, llvm::StringRef Name);

/// The ptxas runPtxas runs: CudaPath/bin/ptxas, or that of the CUDA toolkit
/// cuda-roofline was built with when CudaPath is empty.
std::string ptxasPath(llvm::StringRef CudaPath);

/// Assembles Ptx for Arch ("sm_90") with `ptxas -v` and returns what
/// parsePtxasVerbose reads from its report. Fails when ptxas is missing,
/// fails (its first error line) or runs longer than TimeoutSeconds (0: no
/// limit); the temporary files it writes are removed.
llvm::Expected<std::map<std::string, PtxasUsage>>
runPtxas(llvm::StringRef Ptx, llvm::StringRef Arch, llvm::StringRef CudaPath,
         double TimeoutSeconds);

} // namespace roofline

#endif
