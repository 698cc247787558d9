//===- MachineInstructions.h - Instructions per block, by pipe --*- C++ -*-===//
//
// Reads the marked PTX of a module (PtxCodegen.h) back into per-thread
// instruction counts of one execution of each IR block, by the pipe that
// executes them (Counters.h, "inst."): what the issue slots, the FP32, FP64,
// half-precision, integer, MUFU, conversion, shuffle and load/store pipes
// have to do. One PTX instruction is one machine instruction, except that
// the instructions ptxas expands (IEEE division, square root) count what the
// expansion table says they execute, register moves and parameter loads,
// which ptxas folds into operands, count nothing, and the 64-bit address
// arithmetic it makes one IMAD.WIDE of counts as that (WideAddresses.h;
// docs/counting.md, "Instructions").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_MACHINEINSTRUCTIONS_H
#define CUDA_ROOFLINE_MACHINEINSTRUCTIONS_H

#include "OpClassifier.h"
#include "PtxCodegen.h"
#include "Rational.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <utility>

namespace llvm {
class BasicBlock;
}

namespace roofline {

/// Adds what one PTX instruction statement ("@%p1 bra $L__BB0_2;",
/// "fma.rn.f32 %f1, %f2, %f3, %f4;") counts per thread to Out. Lines that
/// are not instructions (directives, labels, comments) count nothing.
void classifyPtxInstruction(llvm::StringRef Statement, OpCounts &Out);

/// A PTX statement's opcode and operands, its guard predicate, braces and
/// comment dropped; an empty opcode for a directive, label or comment.
std::pair<llvm::StringRef, llvm::StringRef>
ptxOpcodeAndOperands(llvm::StringRef Statement);

/// The operand an instruction writes (its first: "%r1", "{%f1, %f2}",
/// "%p1|%p2") and those it reads. Stores, reductions, prefetches and
/// asynchronous copies, whose first operand is an address, write none.
std::pair<llvm::StringRef, llvm::StringRef>
ptxDestinationAndSources(llvm::StringRef Opcode, llvm::StringRef Operands);

/// The registers (%r1, %rd2, %p3, %tid.x) Text names, in order.
llvm::SmallVector<llvm::StringRef, 8> ptxRegisters(llvm::StringRef Text);

/// Whether Line (trimmed) starts a kernel or function (.entry, .func).
bool isPtxFunctionStart(llvm::StringRef Line);

/// Instructions per execution of every marked block. The unit is the
/// machine basic block (a label or a branch ends one), because the back end
/// schedules instructions freely within one, across the markers of the IR
/// blocks merged into it; those blocks (a fully unrolled loop's copies
/// among them) all run as often as the machine block does. Its instructions
/// go to the marker whose copies it holds the largest share of, divided by
/// that marker's number of copies (a block unrolled N times runs one copy
/// per execution of the original). A machine block without a marker (an
/// edge the back end split) goes with the one before it. A partial unroll's
/// remainder (MarkerKind::Rest) is charged nothing, and the unroller's own
/// blocks (MarkerKind::Beside) run as often as one copy of their block
/// (BlockMarkers.h).
std::map<const llvm::BasicBlock *, std::map<std::string, Rational>>
blockInstructions(const MarkedPtx &P);

} // namespace roofline

#endif
