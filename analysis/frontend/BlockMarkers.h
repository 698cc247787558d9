//===- BlockMarkers.h - The comments that tie PTX to IR blocks --*- C++ -*-===//
//
// Each block of the analyzed module is marked with an inline-asm comment
// before code generation ("// roofline-block N"), so that the PTX between
// two markers is the machine code of block N (PtxCodegen.h). Unrolling
// copies a marker with its block: a loop unrolled U times has U copies of
// it, each running once per U iterations. A partial unroll of a loop whose
// trip count is not known adds a remainder loop, which runs the iterations
// left over (fewer than U per entry of the loop), and a few blocks of its
// own that run once per entry; those are marked apart, so that the
// remainder is not charged as if it ran as often as the unrolled body
// (docs/counting.md, "Instructions").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_BLOCKMARKERS_H
#define CUDA_ROOFLINE_BLOCKMARKERS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
} // namespace llvm

namespace roofline {

/// The text that starts a marker comment.
constexpr const char *BlockMarker = "roofline-block ";

/// How the code after a marker runs against the block the marker names.
enum class MarkerKind {
  Copy,   ///< A copy of the block: its copies share the block's executions.
  Rest,   ///< A copy in a partial unroll's remainder loop: charged nothing.
  Beside, ///< A block the unroller added: it runs as often as one copy.
};

struct MarkerRef {
  unsigned Id = 0;
  MarkerKind Kind = MarkerKind::Copy;
};

/// The comment ("// roofline-block 4 rest") for marker Id of kind Kind.
std::string markerText(unsigned Id, MarkerKind Kind = MarkerKind::Copy);

/// The marker Text holds (an asm string or a PTX line), if any.
std::optional<MarkerRef> parseMarker(llvm::StringRef Text);

/// The marker of a block-marker call, if I is one.
std::optional<MarkerRef> markerOf(const llvm::Instruction &I);

/// Inserts the marker comment Text at the top of BB.
void insertMarker(llvm::BasicBlock &BB, const std::string &Text);

/// After unrolling F: marks the copies in each partial unroll's remainder
/// loop as Rest, and marks each block without a marker (one the unroller
/// added) Beside the nearest block above it, outside the loops it is not
/// in, that has one.
void markUnrollRemainders(llvm::Function &F);

} // namespace roofline

#endif
