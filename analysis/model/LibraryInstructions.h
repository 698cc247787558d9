//===- LibraryInstructions.h - The machine code of library math -*- C++ -*-===//
//
// Part of cuda-roofline.
//
// The PTX counted for instructions (PtxCodegen.h) leaves libdevice
// unlinked, so that math calls stay recognizable: a call to __nv_cosf is
// one call instruction there, where the built kernel executes the
// function's body inline. Its body is compiled here the same way, each
// block marked, and every block's instructions counted as often as the
// block runs when the function is run on ordinary arguments (the run that
// counts its FLOPs, ExecutedMath.h; docs/counting.md, "Instructions").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LIBRARYINSTRUCTIONS_H
#define CUDA_ROOFLINE_LIBRARYINSTRUCTIONS_H

#include "ExecutedMath.h"
#include "Rational.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace llvm {
class BasicBlock;
}

namespace roofline {

/// Per-thread machine instructions ("inst." counters) of one call of the
/// libdevice function Name compiled for Arch ("sm_90"), in the mode; cached.
/// An error says why they cannot be counted.
llvm::Expected<std::map<std::string, Rational>>
libraryCallInstructions(llvm::StringRef Name, const MathMode &Mode,
                        llvm::StringRef LibdevicePath, const std::string &Arch);

/// Puts in Machine (instructions per execution of each block, as
/// blockInstructions makes them) the instructions of every libdevice call
/// in place of the call itself (one call instruction, issued once). A call
/// that cannot be counted stays one call instruction.
void addLibraryInstructions(std::map<const llvm::BasicBlock *,
                                     std::map<std::string, Rational>> &Machine,
                            const std::string &Arch);

} // namespace roofline

#endif
