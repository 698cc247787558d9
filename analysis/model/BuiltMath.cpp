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
      // 1 / x reads the divisor only.
      SmallVector<Value *, 2> Args;
      if (!Rcp)
        Args.push_back(I->getOperand(0));
      Args.push_back(I->getOperand(1));
      std::string Asm = Op + " $0", Constraints = "=f";
      for (unsigned N = 1; N <= Args.size(); ++N) {
        Asm += ", $" + std::to_string(N);
        Constraints += ",f";
      }
      Type *T = I->getType();
      auto *FT = FunctionType::get(T, SmallVector<Type *, 2>(Args.size(), T),
                                   /*isVarArg=*/false);
      Value *Result = IRBuilder<>(I).CreateCall(
          InlineAsm::get(FT, Asm + ";", Constraints, /*hasSideEffects=*/false),
          Args);
      I->replaceAllUsesWith(Result);
      I->eraseFromParent();
    }
  }
}
