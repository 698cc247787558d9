//===- CacheHintAsm.h - Inline-PTX global accesses as plain IR --*- C++ -*-===//
//
// clang's cache-hint intrinsics (__ldcs, __ldcg, __ldcv, __stwt in
// __clang_cuda_intrinsics.h), the __half/__nv_bfloat16 overloads of
// cuda_fp16.hpp/cuda_bf16.hpp, and hand-written kernels issue global loads
// and stores as inline PTX: `ld.global.cs.f32 $0, [$1];`. To the analysis an
// asm is opaque, so its bytes would be unknown. An asm whose whole text is
// one global load or store, with one address operand and the data in its
// outputs (load) or inputs (store), does nothing else: it is replaced by
// the LLVM load or store of the same width at the same pointer, with the
// call's debug location, so that it is counted, and analyzed for
// coalescing, exactly as a plain access. The cache hint is dropped.
//
// The same holds for the shared-memory instructions of tensor-core kernels
// (issue 22): ld/st.shared at a shared-window address (the pointer behind
// __cvta_generic_to_shared), ldmatrix/stmatrix (each lane's share of the
// warp's 8x8 matrices, at its row address), and cp.async, inline or as the
// llvm.nvvm.cp.async.*.shared.global.N intrinsic (a global load and a
// shared store of its 4, 8 or 16 bytes). docs/counting.md, "Inline PTX".
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_CACHEHINTASM_H
#define CUDA_ROOFLINE_CACHEHINTASM_H

#include "TensorMaps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallInst;
class Module;
} // namespace llvm

namespace roofline {

/// Metadata on the load or store an ldmatrix/stmatrix .x1/.x2 became: only
/// some lanes' addresses are rows of the request (AccessModel::PartialLanes).
constexpr const char *PartialLanesMD = "roofline.partial_lanes";

/// Metadata on a TMA copy left as asm: why its box is not known (one
/// string), for the unknown OpClassifier reports.
constexpr const char *UnreadCopyMD = "roofline.unread_copy";

/// Metadata on a bulk or TMA copy that was lowered, and on the memcpys it
/// became. The memcpys carry the bytes and addresses the analysis counts;
/// the asm stays, touching only memory nothing else reads, as the one
/// instruction the machine code issues for the copy: emitMarkedPtx drops
/// the memcpys and keeps it, and the prediction counts the copy's shared
/// memory writes, not L1 wavefronts (the copy engine moves the data
/// between L2 and shared memory).
constexpr const char *BulkCopyMD = "roofline.bulk_copy";

/// Replaces CI, if it is such an asm, by the equivalent load or store
/// (volatile when the asm is volatile or clobbers memory, as the compiler
/// then neither merges nor removes it). Returns whether it did; anything
/// else is left as it is (and stays an unknown of the analysis).
///
/// Accepted: `ld` or `st`, the `.global` or `.shared` state space, any of
/// the cache and
/// eviction qualifiers (.ca .cg .cs .lu .cv .nc .wb .wt, .L1::* and .L2::*
/// without an extra operand), .weak/.volatile/.relaxed/.acquire/.release
/// with a scope, an optional .v2/.v4/.v8, and a .b/.u/.s/.f type of 8 to
/// 128 bits; the operands `D, [$a]` (load) or `[$a], D` (store), D being
/// one operand or {$x,$y,...}, one per vector lane. Also
/// `ldmatrix`/`stmatrix...m8n8.{x1,x2,x4}[.trans].b16` and
/// `cp.async.{ca,cg}.shared.global [$d], [$s], 4|8|16`, the
/// `cp.async.bulk` copies of a constant size, and the tile-mode
/// `cp.async.bulk.tensor` copies of a kernel's CUtensorMap parameter whose
/// box Maps knows (by the kernel's mangled name and the parameter's index),
/// and `tcgen05.alloc`'s write of the allocation's address (lane 0's store).
bool lowerCacheHintAsm(llvm::CallInst &CI, const TensorMapBoxes &Maps = {});

/// An asm statement's operands ("[$0], [$1, {$2, $3}], [$4]"), split at
/// the commas outside [] and {}, each trimmed.
llvm::SmallVector<llvm::StringRef, 6> ptxOperands(llvm::StringRef S);

/// lowerCacheHintAsm on every asm call of M; returns how many it replaced.
unsigned lowerCacheHintAsm(llvm::Module &M, const TensorMapBoxes &Maps = {});

} // namespace roofline

#endif
