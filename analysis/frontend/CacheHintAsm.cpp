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
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

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
  bool Shared = false; ///< .shared (a 32-bit shared-window address).
  /// The LLVM address space of a .global (0: generic, as a kernel's
  /// pointer is), .const (4) or .local (5) access; unused for .shared.
  unsigned AddrSpace = 0;
  /// ldmatrix/stmatrix: a warp-collective access of 8x8 b16 matrices,
  /// lowered per lane as its share (docs/counting.md).
  bool Matrix = false;
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

/// The opcode's parts ("ld", "global", "f32") and the operands of an asm
/// that is one statement, unpredicated, outside any block of its own,
/// without comments; false for anything else.
bool oneStatement(StringRef Asm, SmallVectorImpl<StringRef> &Parts,
                  StringRef &Operands) {
  StringRef S = Asm.trim();
  S.consume_back(";");
  S = S.trim();
  if (S.empty() || S.contains(';') || S.contains('\n') || S.starts_with("@") ||
      S.starts_with("{") || S.contains("//") || S.contains("/*"))
    return false;
  size_t Space = S.find_first_of(" \t");
  if (Space == StringRef::npos)
    return false;
  S.take_front(Space).split(Parts, '.');
  Operands = S.drop_front(Space).trim();
  return true;
}

/// A's address and data operands: `D, [$a]` (load) or `[$a], D` (store),
/// D being one operand or {$x,$y,...}, one per lane.
bool takeOperands(StringRef Operands, Access &A) {
  // The address comes first for a store, last for a load; the data is
  // split off at the comma outside the braces.
  size_t Brace = Operands.find('}');
  size_t Comma = A.IsStore
                     ? Operands.find(',')
                     : Operands.find(',', Brace == StringRef::npos ? 0 : Brace);
  if (Comma == StringRef::npos)
    return false;
  StringRef First = Operands.take_front(Comma);
  StringRef Second = Operands.drop_front(Comma + 1);
  auto Addr = addressOperand(A.IsStore ? First : Second);
  auto Data = dataOperands(A.IsStore ? Second : First);
  if (!Addr || !Data || Data->size() != A.Lanes)
    return false;
  A.Address = *Addr;
  A.Data = *Data;
  return true;
}

std::optional<Access> parseAccess(StringRef Asm) {
  SmallVector<StringRef, 8> Parts;
  StringRef Operands;
  if (!oneStatement(Asm, Parts, Operands))
    return std::nullopt;
  Access A;
  if (Parts.front() != "ld" && Parts.front() != "st")
    return std::nullopt;
  A.IsStore = Parts.front() == "st";
  auto T = ptxType(Parts.back());
  if (!T || Parts.size() < 3)
    return std::nullopt;
  A.Type = *T;
  unsigned Spaces = 0;
  for (StringRef P : ArrayRef(Parts).slice(1, Parts.size() - 2)) {
    if (P == "global" || P == "const" || P == "local") {
      ++Spaces;
      A.AddrSpace = P == "global" ? 0 : P == "const" ? 4 : 5;
    } else if (P == "shared" || P == "shared::cta") {
      ++Spaces;
      A.Shared = true;
    } else if (P == "v2" || P == "v4" || P == "v8")
      A.Lanes = P.back() - '0';
    else if (!harmlessQualifier(P))
      return std::nullopt;
  }
  // One state space, and no store to the constant bank.
  if (Spaces != 1 || (A.IsStore && A.AddrSpace == 4))
    return std::nullopt;
  if (!takeOperands(Operands, A))
    return std::nullopt;
  return A;
}

/// ldmatrix/stmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans][.shared].b16:
/// each of the warp's 32 lanes gets (or gives) one 32-bit register per
/// matrix; lowered as that many b32 lanes at the lane's row address, which
/// is exact for the warp's bytes (128 per matrix) and, for .x4 where every
/// lane names a row, for its addresses.
std::optional<Access> parseMatrix(StringRef Asm) {
  SmallVector<StringRef, 8> Parts;
  StringRef Operands;
  if (!oneStatement(Asm, Parts, Operands))
    return std::nullopt;
  Access A;
  A.Shared = A.Matrix = true;
  if (Parts.front() != "ldmatrix" && Parts.front() != "stmatrix")
    return std::nullopt;
  A.IsStore = Parts.front() == "stmatrix";
  bool Shape = false;
  unsigned Count = 0;
  for (StringRef P : ArrayRef(Parts).drop_front()) {
    if (P == "sync" || P == "aligned" || P == "trans" || P == "shared" ||
        P == "shared::cta")
      continue;
    if (P == "m8n8")
      Shape = true;
    else if (P == "x1" || P == "x2" || P == "x4")
      Count = P.back() - '0';
    else if (P != "b16")
      return std::nullopt;
  }
  if (!Shape || !Count)
    return std::nullopt;
  A.Lanes = Count;
  A.Type.Bits = 32;
  if (!takeOperands(Operands, A))
    return std::nullopt;
  return A;
}

/// An asynchronous copy's size: an operand ("$2", constant once inlined) or
/// a literal.
bool copySize(StringRef Size, std::optional<unsigned> &Operand,
              uint64_t &Bytes) {
  Size = Size.trim();
  if (auto N = operandNumber(Size)) {
    Operand = *N;
    return true;
  }
  return !Size.getAsInteger(10, Bytes);
}

/// cp.async.{ca,cg}.shared{::cta}.global[.L2::64B|128B|256B][.L2::cache_hint]
/// [dst], [src], size[, src-size][, policy]: a copy of 4, 8 or 16 bytes from
/// global to shared memory, issued by one thread and completed later
/// (commit/wait groups move no data). The size is a literal or an operand
/// bound to a constant ("n"); a source size (zero fill) is 0, the size, or
/// known only at run time; the cache policy moves nothing.
struct AsyncCopy {
  unsigned Dst = 0, Src = 0;
  std::optional<unsigned> SizeOperand;
  uint64_t Bytes = 0;
  /// The source size (zero fill): an operand, or a literal in SrcBytes.
  std::optional<unsigned> SrcSizeOperand;
  std::optional<unsigned> SrcBytes;
};

std::optional<AsyncCopy> parseAsyncCopy(StringRef Asm) {
  SmallVector<StringRef, 8> Parts;
  StringRef Operands;
  if (!oneStatement(Asm, Parts, Operands))
    return std::nullopt;
  if (Parts.size() < 5 || Parts[0] != "cp" || Parts[1] != "async" ||
      (Parts[2] != "ca" && Parts[2] != "cg") ||
      (Parts[3] != "shared" && Parts[3] != "shared::cta") ||
      Parts[4] != "global")
    return std::nullopt;
  bool Hint = false;
  for (StringRef P : ArrayRef(Parts).drop_front(5)) {
    if (P == "L2::cache_hint" && !Hint)
      Hint = true;
    else if (P != "L2::64B" && P != "L2::128B" && P != "L2::256B")
      return std::nullopt;
  }
  SmallVector<StringRef, 5> Ops;
  Operands.split(Ops, ',');
  size_t Base = Hint ? 4 : 3;
  if (Ops.size() != Base && Ops.size() != Base + 1)
    return std::nullopt;
  auto Dst = addressOperand(Ops[0]), Src = addressOperand(Ops[1]);
  if (!Dst || !Src)
    return std::nullopt;
  AsyncCopy C;
  C.Dst = *Dst;
  C.Src = *Src;
  if (!copySize(Ops[2], C.SizeOperand, C.Bytes))
    return std::nullopt;
  if (Ops.size() == Base + 1) {
    StringRef SrcSize = Ops[3].trim();
    unsigned Literal = 0;
    if (auto N = operandNumber(SrcSize))
      C.SrcSizeOperand = *N;
    else if (!SrcSize.getAsInteger(10, Literal))
      C.SrcBytes = Literal;
    else
      return std::nullopt;
  }
  return C;
}

/// The shared-memory pointer behind a shared-window address operand: a
/// pointer, or an integer __cvta_generic_to_shared made from one (a call
/// before inlining, a ptrtoint after), truncated to 32 bits or not.
/// nullptr when the integer is not visibly one, and for a generic pointer
/// itself (not a shared-window address: the PTX would read elsewhere).
Value *sharedPointer(IRBuilder<> &B, Value *V) {
  bool Converted = false;
  while (true) {
    if (auto *Op = dyn_cast<Operator>(V);
        Op && (Op->getOpcode() == Instruction::Trunc ||
               Op->getOpcode() == Instruction::ZExt ||
               Op->getOpcode() == Instruction::PtrToInt)) {
      V = Op->getOperand(0);
      continue;
    }
    if (auto *CB = dyn_cast<CallInst>(V)) {
      const Function *F = CB->getCalledFunction();
      if (F && F->getName().contains("cvta_generic_to_shared") &&
          CB->arg_size() == 1) {
        Converted = true;
        V = CB->getArgOperand(0);
        continue;
      }
    }
    break;
  }
  auto *PT = dyn_cast<PointerType>(V->getType());
  if (!PT || (PT->getAddressSpace() == 0 && !Converted))
    return nullptr;
  if (PT->getAddressSpace() == 3)
    return V;
  return B.CreateAddrSpaceCast(V, PointerType::get(B.getContext(), 3));
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

/// Replaces CI by a load of Bytes from Src (a global pointer, or its 64-bit
/// address) and a store of them to Dst (a shared-window address): what an
/// asynchronous copy moves, counted when it is issued. With a source size
/// (zero fill) known only at run time, the load is guarded by a non-zero
/// size (the idiom fills out-of-range tiles with 0 or reads the whole copy)
/// and the store of Bytes (data or zeros) is unconditional; a size of 0
/// known here reads nothing.
bool lowerCopy(CallInst &CI, Value *Dst, Value *Src, unsigned Bytes,
               Value *SrcSize = nullptr) {
  LLVMContext &Ctx = CI.getContext();
  IRBuilder<> B(&CI);
  B.SetCurrentDebugLocation(CI.getDebugLoc());
  if (!Src->getType()->isPointerTy() && !Src->getType()->isIntegerTy(64))
    return false;
  Value *D = sharedPointer(B, Dst);
  if (!D)
    return false;
  if (Src->getType()->isIntegerTy(64))
    Src = B.CreateIntToPtr(Src, PointerType::get(Ctx, 0));
  Type *T =
      Bytes == 16
          ? static_cast<Type *>(FixedVectorType::get(Type::getInt32Ty(Ctx), 4))
          : Type::getIntNTy(Ctx, Bytes * 8);
  Value *Data = Constant::getNullValue(T);
  auto *Known = dyn_cast_or_null<ConstantInt>(SrcSize);
  if (!SrcSize || (Known && !Known->isZero())) {
    Data = B.CreateAlignedLoad(T, Src, Align(Bytes), /*isVolatile=*/true);
  } else if (!Known) {
    BasicBlock *Head = CI.getParent();
    Value *Reads =
        B.CreateICmpNE(SrcSize, ConstantInt::get(SrcSize->getType(), 0));
    Instruction *ThenTerm = SplitBlockAndInsertIfThen(Reads, CI.getIterator(),
                                                      /*Unreachable=*/false);
    IRBuilder<> Then(ThenTerm);
    Then.SetCurrentDebugLocation(CI.getDebugLoc());
    LoadInst *L =
        Then.CreateAlignedLoad(T, Src, Align(Bytes), /*isVolatile=*/true);
    B.SetInsertPoint(&CI);
    PHINode *Phi = B.CreatePHI(T, 2);
    Phi->addIncoming(L, ThenTerm->getParent());
    Phi->addIncoming(Data, Head);
    Phi->moveBefore(CI.getParent()->getFirstNonPHIIt());
    Data = Phi;
  }
  B.CreateAlignedStore(Data, D, Align(Bytes), /*isVolatile=*/true);
  CI.eraseFromParent();
  return true;
}

/// Whether an asynchronous copy's asm call has what the statement names: no
/// outputs, its destination, source and size operands, and a constant size
/// (then in Bytes).
bool copyOperandsFit(const CallInst &CI, const InlineAsm &IA, unsigned Dst,
                     unsigned Src, std::optional<unsigned> SizeOperand,
                     uint64_t &Bytes) {
  if (!CI.getType()->isVoidTy())
    return false;
  for (const InlineAsm::ConstraintInfo &Info : IA.ParseConstraints())
    if (Info.Type == InlineAsm::isOutput || Info.isIndirect)
      return false;
  unsigned Args = CI.arg_size();
  if (Dst >= Args || Src >= Args || (SizeOperand && *SizeOperand >= Args))
    return false;
  if (SizeOperand) {
    auto *K = dyn_cast<ConstantInt>(CI.getArgOperand(*SizeOperand));
    if (!K)
      return false;
    Bytes = K->getZExtValue();
  }
  return true;
}

/// An inline-PTX cp.async (parseAsyncCopy) as lowerCopy.
bool lowerAsyncCopyAsm(CallInst &CI, const InlineAsm &IA) {
  std::optional<AsyncCopy> C = parseAsyncCopy(IA.getAsmString());
  if (!C || !copyOperandsFit(CI, IA, C->Dst, C->Src, C->SizeOperand, C->Bytes))
    return false;
  unsigned Args = CI.arg_size();
  if (C->Bytes != 4 && C->Bytes != 8 && C->Bytes != 16)
    return false;
  Value *SrcSize = nullptr;
  if (C->SrcSizeOperand) {
    if (*C->SrcSizeOperand >= Args)
      return false;
    SrcSize = CI.getArgOperand(*C->SrcSizeOperand);
    if (!SrcSize->getType()->isIntegerTy())
      return false;
  } else if (C->SrcBytes) {
    SrcSize = ConstantInt::get(Type::getInt32Ty(CI.getContext()), *C->SrcBytes);
  }
  // A partial source (0 < size < the copy) reads bytes no model here counts.
  if (auto *K = dyn_cast_or_null<ConstantInt>(SrcSize);
      K && !K->isZero() && K->getZExtValue() != C->Bytes)
    return false;
  return lowerCopy(CI, CI.getArgOperand(C->Dst), CI.getArgOperand(C->Src),
                   C->Bytes, SrcSize);
}

/// llvm.nvvm.cp.async.{ca,cg}.shared.global.{4,8,16}(dst, src), what
/// __pipeline_memcpy_async and cuda::memcpy_async become (the ".s" forms,
/// with a source size, stay unknown).
bool lowerAsyncCopyIntrinsic(CallInst &CI) {
  const Function *F = CI.getCalledFunction();
  if (!F || CI.arg_size() != 2)
    return false;
  StringRef Name = F->getName();
  if (!Name.consume_front("llvm.nvvm.cp.async.") ||
      !(Name.consume_front("ca.") || Name.consume_front("cg.")) ||
      !Name.consume_front("shared.global."))
    return false;
  unsigned Bytes = 0;
  if (Name.getAsInteger(10, Bytes) || (Bytes != 4 && Bytes != 8 && Bytes != 16))
    return false;
  return lowerCopy(CI, CI.getArgOperand(0), CI.getArgOperand(1), Bytes);
}

/// The completion a bulk copy (plain or tensor) from state space Src to
/// Dst names: an mbarrier's byte count into shared memory, a bulk group
/// out of it; empty for another pair. ToShared says which way it copies.
StringRef bulkCompletion(StringRef Dst, StringRef Src, bool &ToShared) {
  ToShared = Dst != "global";
  if ((Dst == "shared::cluster" || Dst == "shared::cta") && Src == "global")
    return "mbarrier::complete_tx::bytes";
  if (Dst == "global" && Src == "shared::cta")
    return "bulk_group";
  return "";
}

/// cp.async.bulk between global and shared memory, as one thread issues it:
///   cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes
///       [dst], [src], size, [mbar]
///   cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size
/// each with an optional .L2::cache_hint (and its policy operand, which
/// moves nothing). The size is a literal or an operand that is constant
/// once inlined; multicast and byte masks are refused.
struct BulkCopy {
  unsigned Dst = 0, Src = 0;
  std::optional<unsigned> SizeOperand;
  uint64_t Bytes = 0;
  bool ToShared = true;
};

std::optional<BulkCopy> parseBulkCopy(StringRef Asm) {
  SmallVector<StringRef, 8> Parts;
  StringRef Operands;
  if (!oneStatement(Asm, Parts, Operands))
    return std::nullopt;
  if (Parts.size() < 6 || Parts[0] != "cp" || Parts[1] != "async" ||
      Parts[2] != "bulk")
    return std::nullopt;
  BulkCopy C;
  StringRef Completion = bulkCompletion(Parts[3], Parts[4], C.ToShared);
  if (Completion.empty() || Parts[5] != Completion)
    return std::nullopt;
  bool Hint = false;
  for (StringRef P : ArrayRef(Parts).drop_front(6)) {
    if (P != "L2::cache_hint" || Hint)
      return std::nullopt;
    Hint = true;
  }
  SmallVector<StringRef, 6> Ops;
  Operands.split(Ops, ',');
  if (Ops.size() != (C.ToShared ? 4u : 3u) + Hint)
    return std::nullopt;
  auto Dst = addressOperand(Ops[0]), Src = addressOperand(Ops[1]);
  if (!Dst || !Src || (C.ToShared && !addressOperand(Ops[3])))
    return std::nullopt;
  C.Dst = *Dst;
  C.Src = *Src;
  if (!copySize(Ops[2], C.SizeOperand, C.Bytes))
    return std::nullopt;
  return C;
}

void markBulk(Instruction &I) {
  I.setMetadata(BulkCopyMD, MDNode::get(I.getContext(), {}));
}

/// A lowered bulk or TMA copy's asm, left in place as the instruction the
/// machine code issues (BulkCopyMD): its memcpys stand for the memory it
/// touches.
void keepAsIssued(CallInst &CI) {
  markBulk(CI);
  CI.setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
}

/// An inline-PTX cp.async.bulk (parseBulkCopy) as a volatile memcpy of its
/// constant size between the global pointer and the shared window: the
/// global end is read or written once, by the issuing thread. A size that
/// is not constant leaves the asm unknown (OpClassifier says so).
bool lowerBulkCopyAsm(CallInst &CI, const InlineAsm &IA) {
  std::optional<BulkCopy> C = parseBulkCopy(IA.getAsmString());
  if (!C || !copyOperandsFit(CI, IA, C->Dst, C->Src, C->SizeOperand, C->Bytes))
    return false;
  // PTX: a multiple of 16 bytes.
  if (C->Bytes == 0 || C->Bytes % 16)
    return false;
  IRBuilder<> B(&CI);
  B.SetCurrentDebugLocation(CI.getDebugLoc());
  LLVMContext &Ctx = CI.getContext();
  Value *Shared =
      sharedPointer(B, CI.getArgOperand(C->ToShared ? C->Dst : C->Src));
  Value *Global = CI.getArgOperand(C->ToShared ? C->Src : C->Dst);
  if (!Shared || (!Global->getType()->isPointerTy() &&
                  !Global->getType()->isIntegerTy(64)))
    return false;
  if (Global->getType()->isIntegerTy(64))
    Global = B.CreateIntToPtr(Global, PointerType::get(Ctx, 0));
  Value *Dst = C->ToShared ? Shared : Global;
  Value *Src = C->ToShared ? Global : Shared;
  markBulk(*B.CreateMemCpy(Dst, Align(16), Src, Align(16), B.getInt64(C->Bytes),
                           /*isVolatile=*/true));
  keepAsIssued(CI);
  return true;
}

/// A TMA copy in tile mode, as one thread issues it:
///   cp.async.bulk.tensor.Nd.shared::{cluster,cta}.global[.tile]
///       .mbarrier::complete_tx::bytes [dst], [map, {c0, ...}], [mbar]
///   cp.async.bulk.tensor.Nd.global.shared::cta[.tile].bulk_group
///       [map, {c0, ...}], [src]
/// each with an optional .L2::cache_hint and its policy operand. Multicast,
/// im2col and the CTA-pair forms are refused.
struct TensorCopy {
  unsigned Shared = 0, Map = 0;
  SmallVector<unsigned, 5> Coords;
  bool ToShared = true;
};

/// "[$1, {$2, $3}]": the map's operand and the coordinates'.
bool mapOperands(StringRef S, unsigned Dims, TensorCopy &C) {
  S = S.trim();
  if (!S.consume_front("[") || !S.consume_back("]"))
    return false;
  auto [Map, Coords] = S.split(',');
  auto Numbers = dataOperands(Coords);
  auto MapNumber = operandNumber(Map);
  if (!Numbers || Numbers->size() != Dims || !MapNumber)
    return false;
  C.Map = *MapNumber;
  C.Coords.assign(Numbers->begin(), Numbers->end());
  return true;
}

std::optional<TensorCopy> parseTensorCopy(StringRef Asm) {
  SmallVector<StringRef, 8> Parts;
  StringRef Operands;
  if (!oneStatement(Asm, Parts, Operands) || Parts.size() < 7 ||
      Parts[0] != "cp" || Parts[1] != "async" || Parts[2] != "bulk" ||
      Parts[3] != "tensor")
    return std::nullopt;
  unsigned Dims = 0;
  if (!Parts[4].consume_back("d") || Parts[4].getAsInteger(10, Dims) ||
      Dims < 1 || Dims > 5)
    return std::nullopt;
  TensorCopy C;
  StringRef Completion = bulkCompletion(Parts[5], Parts[6], C.ToShared);
  if (Completion.empty())
    return std::nullopt;
  ArrayRef<StringRef> Rest = ArrayRef(Parts).drop_front(7);
  if (!Rest.empty() && Rest.front() == "tile")
    Rest = Rest.drop_front();
  if (Rest.empty() || Rest.front() != Completion)
    return std::nullopt;
  Rest = Rest.drop_front();
  bool Hint = Rest.size() == 1 && Rest.front() == "L2::cache_hint";
  if (!Rest.empty() && !Hint)
    return std::nullopt;
  SmallVector<StringRef, 6> Ops = ptxOperands(Operands);
  if (Ops.size() != (C.ToShared ? 3u : 2u) + Hint)
    return std::nullopt;
  auto Shared = addressOperand(Ops[C.ToShared ? 0 : 1]);
  if (!Shared || !mapOperands(Ops[C.ToShared ? 1 : 0], Dims, C) ||
      (C.ToShared && !addressOperand(Ops[2])))
    return std::nullopt;
  C.Shared = *Shared;
  return C;
}

/// The kernel parameter a map operand is the address of (a ptrtoint of the
/// __grid_constant__ parameter once helpers are inlined); null otherwise.
Argument *mapParameter(Value *V) {
  while (auto *Op = dyn_cast<Operator>(V)) {
    if (Op->getOpcode() != Instruction::PtrToInt &&
        Op->getOpcode() != Instruction::AddrSpaceCast &&
        Op->getOpcode() != Instruction::BitCast)
      break;
    V = Op->getOperand(0);
  }
  auto *A = dyn_cast<Argument>(V);
  if (!A || A->getParent()->getCallingConv() != CallingConv::PTX_Kernel ||
      !A->getType()->isPointerTy())
    return nullptr;
  return A;
}

/// Leaves the copy as asm, with why its bytes are not known.
bool leaveUnread(CallInst &CI, const Twine &Why) {
  LLVMContext &Ctx = CI.getContext();
  CI.setMetadata(UnreadCopyMD, MDNode::get(Ctx, MDString::get(Ctx, Why.str())));
  return false;
}

/// The bytes between consecutive coordinates of each dimension from 1 up:
/// the map's global strides where the host code gives them as constants;
/// otherwise a layout of 2^K elements per dimension, which keeps distinct
/// coordinates at distinct addresses (and so the footprints and reuse of
/// the boxes) for coordinates below 2^K.
SmallVector<int64_t, 4> tensorStrides(const TensorMapBox &Box) {
  size_t Rank = Box.Box.size();
  if (Box.Strides.size() + 1 == Rank)
    return SmallVector<int64_t, 4>(Box.Strides.begin(), Box.Strides.end());
  unsigned K = std::min<unsigned>(24, 59 / Rank);
  SmallVector<int64_t, 4> S;
  for (size_t I = 1; I < Rank; ++I)
    S.push_back(int64_t(Box.ElementBytes) << (K * I));
  return S;
}

/// A TMA copy (parseTensorCopy) of a kernel parameter's map as a volatile
/// memcpy per row of the box between the shared window and the tensor,
/// which is addressed as a global buffer named after the map parameter:
/// row (r1, r2, ...) of the box at coordinates (c0, c1, ...) starts at
/// c0 * E + sum (ci + ri) * stride_i (docs/counting.md, "Inline PTX").
bool lowerTensorCopyAsm(CallInst &CI, const InlineAsm &IA,
                        const TensorMapBoxes &Maps) {
  std::optional<TensorCopy> C = parseTensorCopy(IA.getAsmString());
  if (!C || !CI.getType()->isVoidTy() || C->Shared >= CI.arg_size() ||
      C->Map >= CI.arg_size() ||
      llvm::any_of(C->Coords, [&](unsigned N) { return N >= CI.arg_size(); }))
    return false;
  Argument *Param = mapParameter(CI.getArgOperand(C->Map));
  if (!Param)
    return false;
  std::string Name = Param->getName().str();
  std::string Quoted = Name.empty() ? "its tensor map" : "'" + Name + "'";
  auto K = Maps.find(Param->getParent()->getName().str());
  const TensorMapBox *Box = nullptr;
  if (K != Maps.end())
    if (auto P = K->second.find(Param->getArgNo()); P != K->second.end())
      Box = &P->second;
  if (!Box)
    return leaveUnread(CI, "no launch in this file passes " + Quoted +
                               " a map built by cuTensorMapEncodeTiled, so "
                               "the box and its bytes are unknown");
  if (!Box->known())
    return leaveUnread(CI, "the box of " + Quoted +
                               " is not known: " + Box->Why + " (line " +
                               Twine(Box->Loc.Line) + ")");
  if (Box->Box.size() != C->Coords.size())
    return leaveUnread(CI, "the copy has " + Twine(C->Coords.size()) +
                               " coordinates, and the box of " + Quoted +
                               " has " + Twine(Box->Box.size()) +
                               " dimensions");
  IRBuilder<> B(&CI);
  B.SetCurrentDebugLocation(CI.getDebugLoc());
  LLVMContext &Ctx = CI.getContext();
  Value *Shared = sharedPointer(B, CI.getArgOperand(C->Shared));
  if (!Shared)
    return false;
  Value *Tensor = B.CreateAddrSpaceCast(Param, PointerType::get(Ctx, 1));
  SmallVector<Value *, 5> Coords;
  for (unsigned N : C->Coords)
    Coords.push_back(B.CreateSExtOrTrunc(CI.getArgOperand(N), B.getInt64Ty()));
  SmallVector<int64_t, 4> Strides = tensorStrides(*Box);
  int64_t RowBytes = Box->Box[0] * Box->ElementBytes, Rows = 1;
  for (size_t I = 1; I < Box->Box.size(); ++I)
    Rows *= Box->Box[I];
  // The offset of row R: its coordinate in each dimension is R's digit
  // in the mixed radix of the box's dimensions.
  auto copyRow = [&](IRBuilder<> &At, Value *Row) {
    Value *Offset = At.CreateMul(Coords[0], At.getInt64(Box->ElementBytes));
    Value *Rest = Row;
    for (size_t I = 1; I < Box->Box.size(); ++I) {
      Value *Digit = Rest;
      if (I + 1 < Box->Box.size()) {
        Digit = At.CreateURem(Rest, At.getInt64(Box->Box[I]));
        Rest = At.CreateUDiv(Rest, At.getInt64(Box->Box[I]));
      }
      Value *Coord = At.CreateAdd(Coords[I], Digit);
      Offset = At.CreateAdd(Offset,
                            At.CreateMul(Coord, At.getInt64(Strides[I - 1])));
    }
    Value *Global = At.CreateGEP(At.getInt8Ty(), Tensor, Offset);
    Value *Local = At.CreateGEP(At.getInt8Ty(), Shared,
                                At.CreateMul(Row, At.getInt64(RowBytes)));
    Value *Dst = C->ToShared ? Local : Global;
    Value *Src = C->ToShared ? Global : Local;
    markBulk(*At.CreateMemCpy(Dst, Align(16), Src, Align(16),
                              At.getInt64(RowBytes), /*isVolatile=*/true));
  };
  if (Rows == 1) {
    copyRow(B, B.getInt64(0));
  } else {
    auto [Body, Row] =
        SplitBlockAndInsertSimpleForLoop(B.getInt64(Rows), CI.getIterator());
    IRBuilder<> InLoop(Body);
    InLoop.SetCurrentDebugLocation(CI.getDebugLoc());
    copyRow(InLoop, Row);
  }
  keepAsIssued(CI);
  return true;
}

/// tcgen05.alloc.cta_group::{1,2}.sync.aligned[.shared::cta].b32 [dst],
/// ncols: the warp allocates tensor memory, and the address of the
/// allocation is written to dst in shared memory, once for the warp. It is
/// lowered as that 4-byte store in lane 0 (its value, unknown here, is 0),
/// so a Blackwell kernel's shared stores stay exact.
bool lowerTensorMemoryAllocAsm(CallInst &CI, const InlineAsm &IA) {
  SmallVector<StringRef, 8> Parts;
  StringRef Operands;
  if (!oneStatement(IA.getAsmString(), Parts, Operands) || Parts.size() < 2 ||
      Parts[0] != "tcgen05" || Parts[1] != "alloc" || !CI.getType()->isVoidTy())
    return false;
  SmallVector<StringRef, 6> Ops = ptxOperands(Operands);
  auto Dst = Ops.size() == 2 ? addressOperand(Ops[0]) : std::nullopt;
  if (!Dst || *Dst >= CI.arg_size())
    return false;
  IRBuilder<> B(&CI);
  B.SetCurrentDebugLocation(CI.getDebugLoc());
  Value *Shared = sharedPointer(B, CI.getArgOperand(*Dst));
  if (!Shared)
    return false;
  Function *LaneId = Intrinsic::getOrInsertDeclaration(
      CI.getModule(), Intrinsic::nvvm_read_ptx_sreg_laneid);
  Value *First = B.CreateICmpEQ(B.CreateCall(LaneId), B.getInt32(0));
  Instruction *Then = SplitBlockAndInsertIfThen(First, CI.getIterator(),
                                                /*Unreachable=*/false);
  IRBuilder<> InLane0(Then);
  InLane0.SetCurrentDebugLocation(CI.getDebugLoc());
  InLane0.CreateAlignedStore(InLane0.getInt32(0), Shared, Align(4),
                             /*isVolatile=*/true);
  CI.eraseFromParent();
  return true;
}

/// Whether the asm's operands are those A needs, each once: a load writes
/// every output and reads the address only; a store has no outputs and
/// reads the address and one value per lane. Outputs is the number of
/// direct outputs (the operands numbered first).
bool operandsFit(const InlineAsm &IA, const CallInst &CI, const Access &A,
                 unsigned &Outputs, bool &ClobbersMemory) {
  // Operand numbers: the direct outputs (the call's results) first, then
  // the inputs (its arguments), clobbers aside.
  unsigned Inputs = 0;
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints()) {
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
  unsigned ExpectOutputs = A.IsStore ? 0 : A.Lanes;
  unsigned ExpectInputs = A.IsStore ? 1 + A.Lanes : 1;
  if (Outputs != ExpectOutputs || Inputs != ExpectInputs || A.Address < Outputs)
    return false;
  SmallVector<unsigned, 8> Seen(A.Data.begin(), A.Data.end());
  Seen.push_back(A.Address);
  llvm::sort(Seen);
  for (unsigned I = 0; I < Seen.size(); ++I)
    if (Seen[I] != I)
      return false; // Every operand exactly once.
  return true;
}

} // namespace

bool roofline::lowerCacheHintAsm(CallInst &CI, const TensorMapBoxes &Maps) {
  if (CI.getMetadata(BulkCopyMD))
    return false; // Lowered already.
  auto *IA = dyn_cast<InlineAsm>(CI.getCalledOperand());
  if (!IA)
    return lowerAsyncCopyIntrinsic(CI);
  std::optional<Access> A = parseAccess(IA->getAsmString());
  if (!A)
    A = parseMatrix(IA->getAsmString());
  if (!A)
    return lowerAsyncCopyAsm(CI, *IA) || lowerBulkCopyAsm(CI, *IA) ||
           lowerTensorMemoryAllocAsm(CI, *IA) ||
           lowerTensorCopyAsm(CI, *IA, Maps);

  bool ClobbersMemory = false;
  unsigned Outputs = 0;
  if (!operandsFit(*IA, CI, *A, Outputs, ClobbersMemory))
    return false;

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
  if (A->Shared)
    Ptr = track(sharedPointer(B, Ptr));
  else if (Ptr->getType()->isIntegerTy(64) ||
           (A->AddrSpace && Ptr->getType()->isIntegerTy(32)))
    Ptr = track(B.CreateIntToPtr(Ptr, PointerType::get(Ctx, A->AddrSpace)));
  else if (A->AddrSpace && Ptr->getType()->isPointerTy())
    Ptr =
        track(B.CreateAddrSpaceCast(Ptr, PointerType::get(Ctx, A->AddrSpace)));
  if (!Ptr || !Ptr->getType()->isPointerTy())
    return discard();
  const DataLayout &DL = CI.getModule()->getDataLayout();
  // PTX requires the whole access to be naturally aligned (a matrix row,
  // 16 bytes, whatever share of it a lane is given).
  Align Alignment(A->Matrix ? 16 : DL.getTypeStoreSize(MemTy).getFixedValue());
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
    StoreInst *St = B.CreateAlignedStore(Stored, Ptr, Alignment, Volatile);
    track(St);
    if (A->Matrix && A->Lanes < 4)
      St->setMetadata(PartialLanesMD, MDNode::get(Ctx, {}));
  } else {
    LoadInst *Load = B.CreateAlignedLoad(MemTy, Ptr, Alignment, Volatile);
    track(Load);
    if (A->Matrix && A->Lanes < 4)
      Load->setMetadata(PartialLanesMD, MDNode::get(Ctx, {}));
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

unsigned roofline::lowerCacheHintAsm(Module &M, const TensorMapBoxes &Maps) {
  SmallVector<CallInst *, 16> Calls;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I);
            CI && (CI->isInlineAsm() ||
                   (CI->getCalledFunction() &&
                    CI->getCalledFunction()->getName().starts_with(
                        "llvm.nvvm.cp.async."))))
          Calls.push_back(CI);
  unsigned N = 0;
  for (CallInst *CI : Calls)
    N += lowerCacheHintAsm(*CI, Maps);
  return N;
}

SmallVector<StringRef, 6> roofline::ptxOperands(StringRef S) {
  SmallVector<StringRef, 6> Ops;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '[' || S[I] == '{')
      ++Depth;
    else if (S[I] == ']' || S[I] == '}')
      --Depth;
    else if (S[I] == ',' && Depth == 0) {
      Ops.push_back(S.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Ops.push_back(S.drop_front(Start).trim());
  return Ops;
}
