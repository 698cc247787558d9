//===- FlagLoops.cpp ------------------------------------------------------===//

#include "FlagLoops.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

// Rewrites L if its latch exits on a header phi of two constants that lets
// exactly two iterations run.
static bool rewriteLoop(Loop &L) {
  BasicBlock *H = L.getHeader(), *Latch = L.getLoopLatch();
  BasicBlock *Pre = L.getLoopPredecessor();
  if (!Latch || !Pre || L.getExitingBlock() != Latch)
    return false;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  auto *Flag = dyn_cast<PHINode>(Br->getCondition());
  if (!Flag || Flag->getParent() != H || Flag->getNumIncomingValues() != 2)
    return false;
  auto *First = dyn_cast<ConstantInt>(Flag->getIncomingValueForBlock(Pre));
  auto *Again = dyn_cast<ConstantInt>(Flag->getIncomingValueForBlock(Latch));
  if (!First || !Again)
    return false;
  bool ContinueOnTrue = L.contains(Br->getSuccessor(0));
  if ((First->isOne() != ContinueOnTrue) || (Again->isOne() == ContinueOnTrue))
    return false;

  LLVMContext &Ctx = H->getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  IRBuilder<> B(&*H->begin());
  PHINode *IV = B.CreatePHI(I32, 2, "trip.iv");
  IRBuilder<> LB(Latch->getTerminator());
  Value *Next = LB.CreateAdd(IV, ConstantInt::get(I32, 1), "trip.next",
                             /*HasNUW=*/true, /*HasNSW=*/true);
  IV->addIncoming(ConstantInt::get(I32, 0), Pre);
  IV->addIncoming(Next, Latch);

  IRBuilder<> HB(&*H->getFirstInsertionPt());
  Value *IsFirst = HB.CreateICmpEQ(IV, ConstantInt::get(I32, 0), "trip.first");
  Value *Cond = ContinueOnTrue ? IsFirst : HB.CreateNot(IsFirst);
  // Other constant pairs (j = phi [0, entry], [4, latch]) become c0 + d*iv.
  SmallVector<PHINode *, 4> Pairs;
  for (PHINode &P : H->phis())
    if (&P != Flag && &P != IV && P.getType()->isIntegerTy() &&
        P.getNumIncomingValues() == 2 &&
        isa<ConstantInt>(P.getIncomingValueForBlock(Pre)) &&
        isa<ConstantInt>(P.getIncomingValueForBlock(Latch)))
      Pairs.push_back(&P);
  for (PHINode *P : Pairs) {
    auto *C0 = cast<ConstantInt>(P->getIncomingValueForBlock(Pre));
    auto *C1 = cast<ConstantInt>(P->getIncomingValueForBlock(Latch));
    APInt D = C1->getValue() - C0->getValue();
    bool NonNeg = !C0->isNegative() && !C1->isNegative() &&
                  C1->getValue().sge(C0->getValue());
    Value *Step = HB.CreateZExtOrTrunc(IV, P->getType());
    Value *Scaled = HB.CreateMul(Step, ConstantInt::get(P->getType(), D), "",
                                 NonNeg, /*HasNSW=*/false);
    Value *V = HB.CreateAdd(C0, Scaled, P->getName() + ".iv", NonNeg, false);
    P->replaceAllUsesWith(V);
    P->eraseFromParent();
  }
  Flag->replaceAllUsesWith(Cond);
  Flag->eraseFromParent();
  return true;
}

unsigned roofline::canonicalizeFlagLoops(Module &M) {
  unsigned N = 0;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (Loop *L : LI.getLoopsInPreorder())
      N += rewriteLoop(*L);
  }
  return N;
}
