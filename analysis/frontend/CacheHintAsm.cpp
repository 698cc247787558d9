//===- CacheHintAsm.cpp ---------------------------------------------------===//

#include "CacheHintAsm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;
using namespace roofline;

namespace {

/// A PTX memory type: its width and how a wider register holds it.
struct PtxType {
  unsigned Bits = 0;
  bool Signed = false; ///< .s8/.s16: sign-extended into a wider register.
  bool Float = false;  ///< .f32/.f64: an LLVM float or double in memory.
};

std::optional<PtxType> ptxType(StringRef T) {
  PtxType P;
  // Half types move through integer registers (.b16, or .b32 for a pair).
  if (T == "f16" || T == "bf16") {
    P.Bits = 16;
    return P;
  }
  if (T == "f16x2" || T == "bf16x2") {
    P.Bits = 32;
    return P;
  }
  if (T.size() < 2 || T.drop_front().getAsInteger(10, P.Bits))
    return std::nullopt;
  bool Sized = P.Bits == 8 || P.Bits == 16 || P.Bits == 32 || P.Bits == 64;
  switch (T.front()) {
  case 'b':
    return Sized || P.Bits == 128 ? std::optional(P) : std::nullopt;
  case 'u':
  case 's':
    P.Signed = T.front() == 's';
    return Sized ? std::optional(P) : std::nullopt;
  case 'f':
    P.Float = true;
    return P.Bits == 32 || P.Bits == 64 ? std::optional(P) : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Qualifiers that change where a global access is cached, ordered or
/// evicted, not what it reads or writes.
bool harmlessQualifier(StringRef Q) {
  // .L1::evict_last, .L2::128B, ...; .L2::cache_hint takes an extra operand,
  // which the operand check refuses.
  if (Q.contains("::"))
    return true;
  return StringSwitch<bool>(Q)
      .Cases({"ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt"}, true)
      .Cases({"weak", "volatile", "relaxed", "acquire", "release"}, true)
      .Cases({"cta", "cluster", "gpu", "sys"}, true)
      .Default(false);
}

/// An access the asm text describes: `ld.global.cs.v4.f32 {$0,$1,$2,$3},
/// [$4];`.
struct Access {
  bool IsStore = false;
  unsigned Lanes = 1;
  PtxType Type;
  unsigned Address = 0;          ///< The operand number of [$a].
  SmallVector<unsigned, 8> Data; ///< One operand number per lane.
};

/// "$3" or "${3}" -> 3.
std::optional<unsigned> operandNumber(StringRef S) {
  S = S.trim();
  if (!S.consume_front("$"))
    return std::nullopt;
  if (S.consume_front("{") && !S.consume_back("}"))
    return std::nullopt;
  unsigned N;
  if (S.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

/// "$0" or "{$0, $1}": the operand numbers in order.
std::optional<SmallVector<unsigned, 8>> dataOperands(StringRef S) {
  S = S.trim();
  SmallVector<unsigned, 8> R;
  if (S.consume_front("{")) {
    if (!S.consume_back("}"))
      return std::nullopt;
    SmallVector<StringRef, 8> Parts;
    S.split(Parts, ',');
    for (StringRef P : Parts) {
      auto N = operandNumber(P);
      if (!N)
        return std::nullopt;
      R.push_back(*N);
    }
    return R;
  }
  auto N = operandNumber(S);
  if (!N)
    return std::nullopt;
  R.push_back(*N);
  return R;
}

/// "[$1]" -> 1 (no offset: `[$1+4]` is refused).
std::optional<unsigned> addressOperand(StringRef S) {
  S = S.trim();
  if (!S.consume_front("[") || !S.consume_back("]"))
    return std::nullopt;
  return operandNumber(S);
}

std::optional<Access> parseAccess(StringRef Asm) {
  StringRef S = Asm.trim();
  S.consume_back(";");
  S = S.trim();
  // One statement, unpredicated, outside any block of its own.
  if (S.empty() || S.contains(';') || S.contains('\n') || S.starts_with("@") ||
      S.starts_with("{") || S.contains("//") || S.contains("/*"))
    return std::nullopt;
  size_t Space = S.find_first_of(" \t");
  if (Space == StringRef::npos)
    return std::nullopt;
  StringRef Op = S.take_front(Space), Operands = S.drop_front(Space).trim();
  SmallVector<StringRef, 6> Parts;
  Op.split(Parts, '.');
  Access A;
  if (Parts.front() != "ld" && Parts.front() != "st")
    return std::nullopt;
  A.IsStore = Parts.front() == "st";
  auto T = ptxType(Parts.back());
  if (!T || Parts.size() < 3)
    return std::nullopt;
  A.Type = *T;
  bool Global = false;
  for (StringRef P : ArrayRef(Parts).slice(1, Parts.size() - 2)) {
    if (P == "global")
      Global = true;
    else if (P == "v2" || P == "v4" || P == "v8")
      A.Lanes = P.back() - '0';
    else if (!harmlessQualifier(P))
      return std::nullopt;
  }
  if (!Global)
    return std::nullopt;
  // The address comes first for a store, last for a load; the data is
  // split off at the comma outside the braces.
  size_t Brace = Operands.find('}');
  size_t Comma = A.IsStore
                     ? Operands.find(',')
                     : Operands.find(',', Brace == StringRef::npos ? 0 : Brace);
  if (Comma == StringRef::npos)
    return std::nullopt;
  StringRef First = Operands.take_front(Comma);
  StringRef Second = Operands.drop_front(Comma + 1);
  auto Addr = addressOperand(A.IsStore ? First : Second);
  auto Data = dataOperands(A.IsStore ? Second : First);
  if (!Addr || !Data || Data->size() != A.Lanes)
    return std::nullopt;
  A.Address = *Addr;
  A.Data = *Data;
  return A;
}

/// Converts V between a register type and the memory type of a lane, as
/// the PTX access does (sub-word integers widen by the type's signedness).
Value *convertLane(IRBuilder<> &B, Value *V, Type *To, bool Signed) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isIntegerTy() && To->isIntegerTy())
    return B.CreateIntCast(V, To, Signed);
  if (From->isSingleValueType() && To->isSingleValueType() &&
      !From->isPointerTy() && !To->isPointerTy() &&
      From->getPrimitiveSizeInBits() == To->getPrimitiveSizeInBits())
    return B.CreateBitCast(V, To);
  return nullptr;
}

} // namespace

bool roofline::lowerCacheHintAsm(CallInst &CI) {
  auto *IA = dyn_cast<InlineAsm>(CI.getCalledOperand());
  if (!IA)
    return false;
  std::optional<Access> A = parseAccess(IA->getAsmString());
  if (!A)
    return false;

  // Operand numbers: the direct outputs (the call's results) first, then
  // the inputs (its arguments), clobbers aside.
  bool ClobbersMemory = false;
  unsigned Outputs = 0, Inputs = 0;
  for (const InlineAsm::ConstraintInfo &C : IA->ParseConstraints()) {
    if (C.Type == InlineAsm::isClobber) {
      ClobbersMemory |= llvm::is_contained(C.Codes, "{memory}");
      continue;
    }
    // Memory operands and tied operands ("0") are not this simple shape.
    if (C.isIndirect || C.hasMatchingInput() ||
        llvm::any_of(C.Codes, [](StringRef Code) {
          return !Code.empty() && isDigit(Code.front());
        }))
      return false;
    if (C.Type == InlineAsm::isOutput) {
      if (Inputs)
        return false;
      ++Outputs;
    } else {
      ++Inputs;
    }
  }
  if (CI.arg_size() != Inputs)
    return false;
  // A load writes every output and reads the address only; a store has no
  // outputs and reads the address and one value per lane.
  unsigned ExpectOutputs = A->IsStore ? 0 : A->Lanes;
  unsigned ExpectInputs = A->IsStore ? 1 + A->Lanes : 1;
  if (Outputs != ExpectOutputs || Inputs != ExpectInputs ||
      A->Address < Outputs)
    return false;
  SmallVector<unsigned, 8> Seen(A->Data.begin(), A->Data.end());
  Seen.push_back(A->Address);
  llvm::sort(Seen);
  for (unsigned I = 0; I < Seen.size(); ++I)
    if (Seen[I] != I)
      return false; // Every operand exactly once.

  LLVMContext &Ctx = CI.getContext();
  Type *LaneTy = A->Type.Float ? (A->Type.Bits == 32 ? Type::getFloatTy(Ctx)
                                                     : Type::getDoubleTy(Ctx))
                               : Type::getIntNTy(Ctx, A->Type.Bits);
  Type *MemTy = A->Lanes == 1 ? LaneTy : FixedVectorType::get(LaneTy, A->Lanes);
  IRBuilder<> B(&CI);
  B.SetCurrentDebugLocation(CI.getDebugLoc());
  // Built in place, and erased again if a lane does not convert, so that a
  // refusal leaves the function as it was.
  SmallVector<Instruction *, 16> Made;
  auto track = [&](Value *V) {
    if (auto *I = dyn_cast_or_null<Instruction>(V);
        I && I != &CI && !llvm::is_contained(Made, I))
      Made.push_back(I);
    return V;
  };
  auto discard = [&] {
    for (Instruction *I : llvm::reverse(Made))
      I->eraseFromParent();
    return false;
  };
  Value *Ptr = CI.getArgOperand(A->Address - Outputs);
  if (Ptr->getType()->isIntegerTy(64))
    Ptr = track(B.CreateIntToPtr(Ptr, PointerType::get(Ctx, 0)));
  if (!Ptr->getType()->isPointerTy())
    return discard();
  const DataLayout &DL = CI.getModule()->getDataLayout();
  // PTX requires the whole access to be naturally aligned.
  Align Alignment(DL.getTypeStoreSize(MemTy).getFixedValue());
  bool Volatile = IA->hasSideEffects() || ClobbersMemory;

  if (A->IsStore) {
    Value *Stored = PoisonValue::get(MemTy);
    for (unsigned L = 0; L < A->Lanes; ++L) {
      Value *V = track(convertLane(B, CI.getArgOperand(A->Data[L] - Outputs),
                                   LaneTy, A->Type.Signed));
      if (!V)
        return discard();
      Stored = A->Lanes == 1 ? V : track(B.CreateInsertElement(Stored, V, L));
    }
    track(B.CreateAlignedStore(Stored, Ptr, Alignment, Volatile));
  } else {
    LoadInst *Load = B.CreateAlignedLoad(MemTy, Ptr, Alignment, Volatile);
    track(Load);
    Type *RetTy = CI.getType();
    auto *Struct = dyn_cast<StructType>(RetTy);
    if ((Struct && Struct->getNumElements() != A->Lanes) ||
        (!Struct && A->Lanes != 1))
      return discard();
    Value *Result = Struct ? PoisonValue::get(RetTy) : nullptr;
    for (unsigned L = 0; L < A->Lanes; ++L) {
      Value *Lane =
          A->Lanes == 1 ? Load : track(B.CreateExtractElement(Load, L));
      // Output $k receives lane L.
      unsigned Out = A->Data[L];
      Type *OutTy = Struct ? Struct->getElementType(Out) : RetTy;
      Value *V = track(convertLane(B, Lane, OutTy, A->Type.Signed));
      if (!V)
        return discard();
      Result = Struct ? track(B.CreateInsertValue(Result, V, Out)) : V;
    }
    CI.replaceAllUsesWith(Result);
  }
  CI.eraseFromParent();
  return true;
}

unsigned roofline::lowerCacheHintAsm(Module &M) {
  SmallVector<CallInst *, 16> Calls;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->isInlineAsm())
          Calls.push_back(CI);
  unsigned N = 0;
  for (CallInst *CI : Calls)
    N += lowerCacheHintAsm(*CI);
  return N;
}
