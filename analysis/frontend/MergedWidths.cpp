//===- MergedWidths.cpp - Shared accesses as the machine code has them ----===//

#include "MergedWidths.h"
#include "PtxCodegen.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <optional>
#include <tuple>
#include <vector>

using namespace roofline;

namespace {

constexpr unsigned SharedSpace = 3;

/// A debug location with the call sites it is inlined at, innermost first.
using LocChain = std::vector<std::pair<unsigned, unsigned>>;

struct Key {
  unsigned Block;
  LocChain Loc;
  bool Store;
  bool operator<(const Key &O) const {
    return std::tie(Block, Loc, Store) < std::tie(O.Block, O.Loc, O.Store);
  }
};

/// A shared load's or store's bytes per lane, and the bytes it moves (fewer
/// for a masked access: the vectorizer fills a gap in a run with a masked
/// lane, which code generation merges with the access after it). Width 0
/// for anything else.
struct SharedAccess {
  unsigned Width = 0, Bytes = 0;
  bool Store = false;
};

/// The bytes one copy of a block (or all copies) accesses at a location,
/// by the width of the instruction that accesses them.
struct Tally {
  uint64_t Bytes = 0;
  std::map<unsigned, uint64_t> ByWidth;
  std::vector<std::pair<const llvm::Instruction *, unsigned>> Insts;
  void add(const llvm::Instruction &I, const SharedAccess &A) {
    Bytes += A.Bytes;
    ByWidth[A.Width] += A.Bytes;
    Insts.emplace_back(&I, A.Width);
  }
  void add(const Tally &O) {
    Bytes += O.Bytes;
    for (auto &[W, B] : O.ByWidth)
      ByWidth[W] += B;
    llvm::append_range(Insts, O.Insts);
  }
};

LocChain chainOf(const llvm::Instruction &I) {
  LocChain C;
  for (const llvm::DILocation *L = I.getDebugLoc().get(); L;
       L = L->getInlinedAt())
    C.emplace_back(L->getLine(), L->getColumn());
  return C;
}

bool isShared(const llvm::Value *Ptr) {
  if (Ptr->getType()->getPointerAddressSpace() == SharedSpace)
    return true;
  auto *GV =
      llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(Ptr));
  return GV && GV->getAddressSpace() == SharedSpace;
}

SharedAccess sharedAccess(const llvm::Instruction &I) {
  const llvm::Value *Ptr = nullptr;
  llvm::Type *Ty = nullptr;
  const llvm::Value *Mask = nullptr;
  SharedAccess A;
  if (auto *L = llvm::dyn_cast<llvm::LoadInst>(&I)) {
    Ptr = L->getPointerOperand();
    Ty = L->getType();
  } else if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I)) {
    Ptr = S->getPointerOperand();
    Ty = S->getValueOperand()->getType();
    A.Store = true;
  } else if (auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I)) {
    if (II->getIntrinsicID() == llvm::Intrinsic::masked_load) {
      Ptr = II->getArgOperand(0);
      Ty = II->getType();
      Mask = II->getArgOperand(1);
    } else if (II->getIntrinsicID() == llvm::Intrinsic::masked_store) {
      Ptr = II->getArgOperand(1);
      Ty = II->getArgOperand(0)->getType();
      Mask = II->getArgOperand(2);
      A.Store = true;
    }
  }
  if (!Ptr || !isShared(Ptr))
    return A;
  const llvm::DataLayout &DL = I.getModule()->getDataLayout();
  A.Width = A.Bytes = DL.getTypeStoreSize(Ty).getFixedValue();
  auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(Ty);
  auto *M = llvm::dyn_cast_or_null<llvm::Constant>(Mask);
  if (VT && M) {
    unsigned On = 0;
    for (unsigned L = 0; L < VT->getNumElements(); ++L)
      if (auto *E = M->getAggregateElement(L); E && !E->isNullValue())
        ++On;
    A.Bytes = A.Width / VT->getNumElements() * On;
  }
  return A;
}

/// The width carrying most of the bytes (the narrower one of a tie).
unsigned mainWidth(const Tally &T) {
  unsigned Best = 0;
  uint64_t Most = 0;
  for (auto &[W, B] : T.ByWidth)
    if (B > Most) {
      Best = W;
      Most = B;
    }
  return Best;
}

void assign(const Tally &Original, const Tally &Merged,
            std::map<const llvm::Instruction *, unsigned> &Out) {
  unsigned Width = mainWidth(Merged);
  for (auto [I, W] : Original.Insts)
    if (W && Width > W && Width % W == 0)
      Out[I] = Width;
}

} // namespace

std::map<const llvm::Instruction *, unsigned>
roofline::mergedSharedWidths(const llvm::Module &M, const llvm::Module &Copy,
                             llvm::ArrayRef<const llvm::BasicBlock *> Blocks) {
  std::map<Key, Tally> Original, Merged;
  for (unsigned N = 0; N < Blocks.size(); ++N)
    for (const llvm::Instruction &I : *Blocks[N]) {
      SharedAccess A = sharedAccess(I);
      if (A.Width)
        Original[{N, chainOf(I), A.Store}].add(I, A);
    }
  std::map<unsigned, uint64_t> Copies;
  for (const llvm::Function &F : Copy)
    for (const llvm::BasicBlock &BB : F) {
      std::optional<unsigned> Marker;
      for (const llvm::Instruction &I : BB) {
        if (auto R = markerOf(I)) {
          // A remainder's copies are the loop as it was, not as the back
          // end merges the unrolled body.
          Marker =
              R->Kind == MarkerKind::Copy ? std::optional(R->Id) : std::nullopt;
          if (Marker)
            ++Copies[*Marker];
          continue;
        }
        SharedAccess A = sharedAccess(I);
        if (A.Width && Marker && *Marker < Blocks.size())
          Merged[{*Marker, chainOf(I), A.Store}].add(I, A);
      }
    }

  std::map<const llvm::Instruction *, unsigned> Out;
  // A block's locations whose bytes differ between the two, taken
  // together: (original, merged) per block.
  std::map<unsigned, std::pair<Tally, Tally>> Unmatched;
  for (auto &[K, T] : Original) {
    auto It = Merged.find(K);
    if (It != Merged.end() && It->second.Bytes == T.Bytes * Copies[K.Block])
      assign(T, It->second, Out);
    else
      Unmatched[K.Block].first.add(T);
  }
  for (auto &[K, T] : Merged) {
    auto It = Original.find(K);
    if (It == Original.end() || T.Bytes != It->second.Bytes * Copies[K.Block])
      Unmatched[K.Block].second.add(T);
  }
  for (auto &[Block, Pair] : Unmatched)
    if (Pair.second.Bytes == Pair.first.Bytes * Copies[Block])
      assign(Pair.first, Pair.second, Out);
  return Out;
}
