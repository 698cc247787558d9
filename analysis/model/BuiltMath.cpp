//===- BuiltMath.cpp ------------------------------------------------------===//

#include "BuiltMath.h"
#include "ExecutedMath.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace roofline;
using namespace llvm;

void roofline::divideAsBuilt(Module &M) {
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    MathMode Mode = mathModeOf(F);
    if (!Mode.Approx)
      continue;
    SmallVector<Instruction *, 8> Divisions;
    for (Instruction &I : instructions(F))
      if (I.getOpcode() == Instruction::FDiv && I.getType()->isFloatTy() &&
          !I.hasApproxFunc())
        Divisions.push_back(&I);
    for (Instruction *I : Divisions) {
      std::string Op = expandedPtxOp(*I, Mode);
      bool Rcp = StringRef(Op).starts_with("rcp.");
      if (Mode.Ftz)
        Op.insert(Op.size() - 4, ".ftz");
      Type *T = I->getType();
      IRBuilder<> B(I);
      Value *Result;
      if (Rcp) {
        auto *FT = FunctionType::get(T, {T}, false);
        Result = B.CreateCall(InlineAsm::get(FT, Op + " $0, $1;", "=f,f",
                                             /*hasSideEffects=*/false),
                              {I->getOperand(1)});
      } else {
        auto *FT = FunctionType::get(T, {T, T}, false);
        Result = B.CreateCall(InlineAsm::get(FT, Op + " $0, $1, $2;", "=f,f,f",
                                             /*hasSideEffects=*/false),
                              {I->getOperand(0), I->getOperand(1)});
      }
      I->replaceAllUsesWith(Result);
      I->eraseFromParent();
    }
  }
}
