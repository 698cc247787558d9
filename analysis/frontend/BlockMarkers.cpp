//===- BlockMarkers.cpp - The comments that tie PTX to IR blocks ----------===//

#include "BlockMarkers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <map>
#include <vector>

using namespace roofline;

static constexpr llvm::StringLiteral RestWord = "rest", BesideWord = "beside";

std::string roofline::markerText(unsigned Id, MarkerKind Kind) {
  std::string Text = "// " + std::string(BlockMarker) + std::to_string(Id);
  if (Kind == MarkerKind::Rest)
    Text += " " + RestWord.str();
  if (Kind == MarkerKind::Beside)
    Text += " " + BesideWord.str();
  return Text;
}

std::optional<MarkerRef> roofline::parseMarker(llvm::StringRef Text) {
  size_t At = Text.find(BlockMarker);
  if (At == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest = Text.drop_front(At + strlen(BlockMarker));
  MarkerRef R;
  if (Rest.consumeInteger(10, R.Id))
    return std::nullopt;
  Rest = Rest.trim();
  if (Rest == RestWord)
    R.Kind = MarkerKind::Rest;
  else if (Rest == BesideWord)
    R.Kind = MarkerKind::Beside;
  else if (!Rest.empty())
    return std::nullopt;
  return R;
}

std::optional<MarkerRef> roofline::markerOf(const llvm::Instruction &I) {
  auto *CI = llvm::dyn_cast<llvm::CallInst>(&I);
  if (!CI || !CI->isInlineAsm())
    return std::nullopt;
  return parseMarker(
      llvm::cast<llvm::InlineAsm>(CI->getCalledOperand())->getAsmString());
}

void roofline::insertMarker(llvm::BasicBlock &BB, const std::string &Text) {
  llvm::LLVMContext &Ctx = BB.getContext();
  auto *Ty = llvm::FunctionType::get(llvm::Type::getVoidTy(Ctx), false);
  // A side effect keeps the marker (and so the block's place) through code
  // generation.
  auto *Asm = llvm::InlineAsm::get(Ty, Text, "", /*hasSideEffects=*/true);
  auto *Call = llvm::CallInst::Create(Ty, Asm, "", BB.getFirstInsertionPt());
  // It writes only memory nothing else reads: loads and stores move past it
  // as they would without it, but it stays in its block (a write is not
  // hoisted out of a loop).
  Call->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
  Call->setDoesNotThrow();
}

namespace {

struct Marked {
  llvm::CallInst *Call;
  MarkerRef Ref;
};

std::optional<Marked> markedCall(llvm::Instruction &I) {
  std::optional<MarkerRef> Ref = markerOf(I);
  if (!Ref)
    return std::nullopt;
  return Marked{llvm::cast<llvm::CallInst>(&I), *Ref};
}

using CopyCounts = std::map<unsigned, unsigned>;

CopyCounts
copiesIn(const llvm::Loop &L,
         const std::map<llvm::BasicBlock *, std::vector<Marked>> &M) {
  CopyCounts Out;
  for (llvm::BasicBlock *BB : L.blocks())
    if (auto It = M.find(BB); It != M.end())
      for (const Marked &K : It->second)
        if (K.Ref.Kind == MarkerKind::Copy)
          ++Out[K.Ref.Id];
  return Out;
}

/// Whether Other holds more copies than Few of every marker Few holds.
bool holdsMore(const CopyCounts &Other, const CopyCounts &Few) {
  return llvm::all_of(Few, [&](const auto &KV) {
    auto It = Other.find(KV.first);
    return It != Other.end() && It->second > KV.second;
  });
}

void setKind(Marked &K, MarkerKind Kind) {
  auto *Old = llvm::cast<llvm::InlineAsm>(K.Call->getCalledOperand());
  K.Ref.Kind = Kind;
  K.Call->setCalledOperand(llvm::InlineAsm::get(Old->getFunctionType(),
                                                markerText(K.Ref.Id, Kind), "",
                                                /*hasSideEffects=*/true));
}

} // namespace

void roofline::markUnrollRemainders(llvm::Function &F) {
  if (F.isDeclaration())
    return;
  std::map<llvm::BasicBlock *, std::vector<Marked>> Markers;
  for (llvm::BasicBlock &BB : F)
    for (llvm::Instruction &I : BB)
      if (auto K = markedCall(I))
        Markers[&BB].push_back(*K);
  llvm::DominatorTree DT(F);
  llvm::LoopInfo LI(DT);

  // The unroller marks both the unrolled loop and its remainder as unrolled
  // already; the remainder is the one with fewer copies of the same blocks.
  // A loop the source keeps rolled (#pragma unroll 1) has no such sibling.
  llvm::SmallVector<llvm::Loop *, 4> Loops = LI.getLoopsInPreorder();
  std::vector<CopyCounts> Counts;
  for (llvm::Loop *L : Loops)
    Counts.push_back(copiesIn(*L, Markers));
  std::vector<llvm::Loop *> Remainders;
  for (size_t I = 0; I < Loops.size(); ++I) {
    if (Counts[I].empty() ||
        !llvm::getBooleanLoopAttribute(Loops[I], "llvm.loop.unroll.disable"))
      continue;
    for (size_t J = 0; J < Loops.size(); ++J)
      if (J != I && !Loops[I]->contains(Loops[J]) &&
          !Loops[J]->contains(Loops[I]) && holdsMore(Counts[J], Counts[I])) {
        Remainders.push_back(Loops[I]);
        break;
      }
  }
  for (llvm::Loop *L : Remainders)
    for (llvm::BasicBlock *BB : L->blocks())
      if (auto It = Markers.find(BB); It != Markers.end())
        for (Marked &K : It->second)
          setKind(K, MarkerKind::Rest);

  // A block without a marker runs once per entry of the loops its dominator
  // with one is in: the unroller's checks, preheaders and exits.
  for (llvm::BasicBlock &BB : F) {
    if (Markers.count(&BB) || !DT.getNode(&BB))
      continue;
    for (llvm::DomTreeNode *N = DT.getNode(&BB)->getIDom(); N;
         N = N->getIDom()) {
      llvm::BasicBlock *D = N->getBlock();
      auto It = Markers.find(D);
      llvm::Loop *L = LI.getLoopFor(D);
      if (It == Markers.end() || (L && !L->contains(&BB)))
        continue;
      auto Copy = llvm::find_if(It->second, [](const Marked &K) {
        return K.Ref.Kind == MarkerKind::Copy;
      });
      if (Copy == It->second.end())
        continue;
      insertMarker(BB, markerText(Copy->Ref.Id, MarkerKind::Beside));
      break;
    }
  }
}
