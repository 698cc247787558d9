//===- ExecutedMath.cpp ---------------------------------------------------===//
//
// The interpreter records every instruction it executes as a node with the
// nodes its result depends on (a select: its condition and the arm taken; a
// phi: the value from the block it came from; a load: the store that wrote
// the bytes). What executes is what the result, the branches taken and the
// stores to the caller's memory depend on; only those nodes are counted.
//
//===----------------------------------------------------------------------===//

#include "ExecutedMath.h"
#include "Counters.h"
#include "Expansions.h"
#include "OpClassifier.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>

using namespace roofline;
using namespace llvm;

ExecutedCost &ExecutedCost::operator+=(const ExecutedCost &O) {
  for (const auto &[P, N] : O.Flops)
    Flops[P] += N;
  Xu += O.Xu;
  return *this;
}

static std::string precisionOf(const Type *T) {
  if (T->isFloatTy())
    return "fp32";
  if (T->isDoubleTy())
    return "fp64";
  if (T->isHalfTy())
    return "fp16";
  if (T->isBFloatTy())
    return "bf16";
  return "";
}

static ExecutedCost flops(const Type *T, int64_t N) {
  ExecutedCost C;
  std::string P = precisionOf(T->getScalarType());
  if (!P.empty() && N)
    C.Flops[P] = N;
  return C;
}

MathMode roofline::mathModeOf(const Function &F) {
  MathMode M;
  const Module *Mod = F.getParent();
  if (auto *Flag = mdconst::extract_or_null<ConstantInt>(
          Mod->getModuleFlag("nvvm-reflect-ftz")))
    M.Ftz = !Flag->isZero();
  if (F.getDenormalModeF32Raw().Output == DenormalMode::PreserveSign)
    M.Ftz = true;
  if (auto *Flag = mdconst::extract_or_null<ConstantInt>(
          Mod->getModuleFlag("roofline.approx-math")))
    M.Approx = !Flag->isZero();
  if (auto *Flag = mdconst::extract_or_null<ConstantInt>(
          Mod->getModuleFlag("roofline.cuda-arch")))
    M.Arch = unsigned(Flag->getZExtValue());
  return M;
}

std::string roofline::libdevicePathOf(const Module &M) {
  if (auto *S =
          dyn_cast_or_null<MDString>(M.getModuleFlag("roofline.libdevice")))
    return S->getString().str();
  return "";
}

/// The PTX operations ptxas expands, by the first part of their name
/// ("rsqrt" of "rsqrt.approx.f32"), with the value the interpreter gives
/// them (approximations computed exactly: only branch decisions depend on
/// them). One list for the intrinsics that name them and for their values.
struct ExpandedOpKind {
  const char *Name;
  double (*Value)(double X, double Y);
};
static const ExpandedOpKind ExpandedOps[] = {
    {"div", [](double X, double Y) { return X / Y; }},
    {"rcp", [](double X, double) { return 1 / X; }},
    {"sqrt", [](double X, double) { return std::sqrt(X); }},
    {"rsqrt", [](double X, double) { return 1 / std::sqrt(X); }},
    {"ex2", [](double X, double) { return std::exp2(X); }},
    {"lg2", [](double X, double) { return std::log2(X); }},
    {"sin", [](double X, double) { return std::sin(X); }},
    {"cos", [](double X, double) { return std::cos(X); }},
    {"tanh", [](double X, double) { return std::tanh(X); }},
};

static const ExpandedOpKind *expandedOpKind(StringRef Op) {
  StringRef Head = Op.split('.').first;
  for (const ExpandedOpKind &K : ExpandedOps)
    if (Head == K.Name)
      return &K;
  return nullptr;
}

static bool isOne(const Value *V) {
  auto *C = dyn_cast<ConstantFP>(V);
  return C && C->isExactlyValue(1.0);
}

std::string roofline::expandedPtxOp(const Instruction &I,
                                    const MathMode &Mode) {
  Type *T = I.getType()->getScalarType();
  std::string Suffix = T->isFloatTy() ? ".f32" : T->isDoubleTy() ? ".f64" : "";
  if (I.getOpcode() == Instruction::FDiv) {
    if (Suffix.empty())
      return "div.rn." + precisionOf(T);
    bool Rcp = isOne(I.getOperand(0));
    if (T->isDoubleTy())
      return Rcp ? "rcp.rn.f64" : "div.rn.f64";
    // NVPTX: afn gives div.approx; nvcc's fast math (--prec-div=false)
    // div.full; 1/x a reciprocal of the same precision.
    if (I.hasApproxFunc())
      return Rcp ? "rcp.approx.f32" : "div.approx.f32";
    if (Mode.Approx || I.hasAllowReciprocal())
      return Rcp ? "rcp.approx.f32" : "div.full.f32";
    return Rcp ? "rcp.rn.f32" : "div.rn.f32";
  }
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  if (!Callee)
    return "";
  switch (Callee->getIntrinsicID()) {
  case Intrinsic::sqrt: {
    if (Suffix.empty())
      return "";
    bool Approx = T->isFloatTy() && (Mode.Approx || CI->hasApproxFunc());
    return std::string(Approx ? "sqrt.approx" : "sqrt.rn") + Suffix;
  }
  // NVPTX lowers these fp32 intrinsics to the approximate instructions
  // (exp2 always; the others when approximation is allowed).
  case Intrinsic::exp2:
    return T->isFloatTy() ? "ex2.approx.f32" : "";
  case Intrinsic::log2:
    return T->isFloatTy() && CI->hasApproxFunc() ? "lg2.approx.f32" : "";
  case Intrinsic::sin:
    return T->isFloatTy() && CI->hasApproxFunc() ? "sin.approx.f32" : "";
  case Intrinsic::cos:
    return T->isFloatTy() && CI->hasApproxFunc() ? "cos.approx.f32" : "";
  case Intrinsic::tanh:
    return T->isFloatTy() ? "tanh.approx.f32" : "";
  default:
    break;
  }
  StringRef N = Callee->getName();
  if (!N.consume_front("llvm.nvvm."))
    return "";
  // llvm.nvvm.<op>.<rounding>[.ftz].<f|d>: the table's key has no ftz.
  SmallVector<StringRef, 4> Parts;
  N.split(Parts, '.');
  if (Parts.size() < 2 || !expandedOpKind(Parts.front()))
    return "";
  std::string Op = Parts.front().str();
  std::string Type =
      Parts.back() == "d" || Parts.back() == "f64" ? "f64" : "f32";
  std::string Rounding;
  for (StringRef P : ArrayRef(Parts).drop_front().drop_back())
    if (P == "rn" || P == "rz" || P == "rm" || P == "rp")
      Rounding = "rn";
    else if (P == "approx" || P == "full")
      Rounding = P.str();
  // llvm.nvvm.sqrt.f is sqrt.rn unless fast math says otherwise.
  if (Rounding.empty())
    Rounding = Op == "sqrt" && !Mode.Approx ? "rn" : "approx";
  if (Op == "rcp" && Rounding == "approx" && Type == "f64")
    return "rcp.approx.ftz.f64";
  return Op + "." + Rounding + "." + Type;
}

Expected<ExecutedCost> roofline::expansionCost(StringRef Op) {
  const Expansion *E = ExpansionTable::builtin().find(Op);
  if (!E)
    return createStringError(inconvertibleErrorCode(),
                             "no expansion of '" + Op +
                                 "' in the GPU data (expansions.json)");
  ExecutedCost C;
  C.Flops = E->Flops;
  C.Xu = E->Xu;
  return C;
}

namespace {

/// A value while interpreting: an integer, a floating-point number (as a
/// double; float results are rounded to float), or a pointer into one of
/// the interpreter's memory objects.
struct Val {
  enum Kind { Int, FP, Ptr } K = Int;
  APInt I{64, 0};
  double F = 0;
  int Obj = -1;
  int64_t Off = 0;
};

/// Memory: constant globals (read through their initializers) and bytes
/// (allocas and the scratch that pointer arguments point to).
struct Object {
  const GlobalVariable *Global = nullptr;
  std::vector<uint8_t> Bytes;
  std::vector<int> Writer; ///< Node that wrote each byte (-1: none).
  bool Output = false;     ///< An argument's: stores to it are results.
};

struct Node {
  const Instruction *I = nullptr;
  SmallVector<int, 4> Deps;
  ExecutedCost Cost;
  bool Root = false;
};

constexpr unsigned StepLimit = 200000;
constexpr unsigned DepthLimit = 32;

class Interpreter {
public:
  Interpreter(const DataLayout &DL, const MathMode &Mode,
              std::function<Expected<const Function *>(StringRef)> Resolve)
      : DL(DL), Mode(Mode), Resolve(std::move(Resolve)) {}

  Expected<ExecutedCost> run(const Function &F);
  /// How often each block ran, in F and the functions it called.
  const BlockRuns &runs() const { return Runs; }

private:
  using Frame = DenseMap<const Value *, std::pair<Val, int>>;

  Expected<std::pair<Val, int>>
  call(const Function &F, ArrayRef<std::pair<Val, int>> Args, unsigned Depth);
  Expected<const BasicBlock *> successor(const Instruction &I, Frame &Fr);
  Error execute(const Instruction &I, Frame &Fr, unsigned Depth);
  Error callInst(const CallInst &CI, Frame &Fr, unsigned Depth);
  Error memoryInst(const Instruction &I, Frame &Fr);
  Error take(Frame &Fr, const Value *V, struct Operands &O);
  Expected<std::pair<Val, ExecutedCost>> arithmetic(const Instruction &I,
                                                    ArrayRef<Val> A);
  Expected<std::pair<Val, ExecutedCost>> floatBinary(const BinaryOperator &BO,
                                                     ArrayRef<Val> A);
  Expected<std::pair<Val, ExecutedCost>> intBinary(const BinaryOperator &BO,
                                                   ArrayRef<Val> A);
  Expected<Val> convert(const CastInst &C, const Val &V);
  Expected<std::pair<Val, ExecutedCost>>
  nvvmIntrinsic(const CallInst &CI, StringRef N, ArrayRef<Val> A);
  Expected<std::pair<Val, int>> operand(Frame &Fr, const Value *V);
  Expected<Val> constant(const Constant *C);
  Expected<Val> loadFrom(const Val &P, Type *T, SmallVectorImpl<int> &Deps);
  Error storeTo(const Val &P, const Val &V, Type *T, int Node);
  Expected<std::pair<Val, ExecutedCost>> intrinsic(const CallInst &CI,
                                                   ArrayRef<Val> A);
  int node(const Instruction *I, ArrayRef<int> Deps, ExecutedCost Cost = {}) {
    Nodes.push_back(Node{I, SmallVector<int, 4>(), std::move(Cost), false});
    for (int D : Deps)
      if (D >= 0)
        Nodes.back().Deps.push_back(D);
    return int(Nodes.size()) - 1;
  }
  Error fail(const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Why);
  }
  ExecutedCost count();

  const DataLayout &DL;
  MathMode Mode;
  std::function<Expected<const Function *>(StringRef)> Resolve;
  std::vector<Node> Nodes;
  std::vector<Object> Memory;
  BlockRuns Runs;
  unsigned Steps = 0;
};

Val intVal(const APInt &I) {
  Val V;
  V.K = Val::Int;
  V.I = I;
  return V;
}

Val fpVal(double F, const Type *T) {
  Val V;
  V.K = Val::FP;
  V.F = T->isFloatTy() ? double(float(F)) : F;
  return V;
}

uint64_t bitsOf(const Val &V, const Type *T) {
  if (V.K == Val::Int)
    return V.I.getZExtValue();
  if (T->isFloatTy()) {
    float F = float(V.F);
    uint32_t B;
    std::memcpy(&B, &F, 4);
    return B;
  }
  uint64_t B;
  std::memcpy(&B, &V.F, 8);
  return B;
}

Val fromBits(uint64_t Bits, Type *T) {
  if (T->isFloatTy()) {
    uint32_t B = uint32_t(Bits);
    float F;
    std::memcpy(&F, &B, 4);
    return fpVal(F, T);
  }
  if (T->isDoubleTy()) {
    double D;
    std::memcpy(&D, &Bits, 8);
    return fpVal(D, T);
  }
  return intVal(APInt(T->getIntegerBitWidth(), Bits));
}

Expected<Val> Interpreter::constant(const Constant *C) {
  if (auto *CI = dyn_cast<ConstantInt>(C))
    return intVal(CI->getValue());
  if (auto *CF = dyn_cast<ConstantFP>(C)) {
    if (!CF->getType()->isFloatTy() && !CF->getType()->isDoubleTy())
      return fail("a " + precisionOf(CF->getType()) + " constant");
    return fpVal(CF->getValueAPF().convertToDouble(), CF->getType());
  }
  if (isa<UndefValue>(C) || isa<ConstantPointerNull>(C)) {
    Val V;
    if (C->getType()->isFloatingPointTy())
      V.K = Val::FP;
    else if (C->getType()->isIntegerTy())
      V.I = APInt(C->getType()->getIntegerBitWidth(), 0);
    return V;
  }
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    for (unsigned I = 0; I < Memory.size(); ++I)
      if (Memory[I].Global == GV) {
        Val P;
        P.K = Val::Ptr;
        P.Obj = int(I);
        return P;
      }
    Memory.push_back(Object{GV, {}, {}, false});
    Val P;
    P.K = Val::Ptr;
    P.Obj = int(Memory.size()) - 1;
    return P;
  }
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    if (CE->getOpcode() == Instruction::AddrSpaceCast ||
        CE->getOpcode() == Instruction::BitCast)
      return constant(CE->getOperand(0));
    if (auto *GEP = dyn_cast<GEPOperator>(CE)) {
      APInt Off(64, 0);
      if (!GEP->accumulateConstantOffset(DL, Off))
        return fail("a constant address");
      auto Base = constant(cast<Constant>(GEP->getPointerOperand()));
      if (!Base)
        return Base.takeError();
      Base->Off += Off.getSExtValue();
      return *Base;
    }
  }
  return fail("a constant it does not evaluate");
}

Expected<std::pair<Val, int>> Interpreter::operand(Frame &Fr, const Value *V) {
  auto It = Fr.find(V);
  if (It != Fr.end())
    return It->second;
  if (auto *C = dyn_cast<Constant>(V)) {
    auto CV = constant(C);
    if (!CV)
      return CV.takeError();
    return std::make_pair(*CV, -1);
  }
  return fail("a value defined on a path not taken");
}

Expected<Val> Interpreter::loadFrom(const Val &P, Type *T,
                                    SmallVectorImpl<int> &Deps) {
  if (P.K != Val::Ptr || P.Obj < 0)
    return fail("a load through an unknown pointer");
  Object &O = Memory[P.Obj];
  unsigned Size = unsigned(DL.getTypeStoreSize(T));
  if (O.Global) {
    if (!O.Global->hasDefinitiveInitializer() || !O.Global->isConstant())
      return fail("a load from a variable global");
    Constant *C = ConstantFoldLoadFromConst(
        const_cast<Constant *>(O.Global->getInitializer()), T, APInt(64, P.Off),
        DL);
    if (!C)
      return fail("a load from '" + O.Global->getName() + "'");
    return constant(C);
  }
  if (P.Off < 0 || P.Off + Size > O.Bytes.size())
    return fail("a load outside its object");
  uint64_t Bits = 0;
  std::memcpy(&Bits, O.Bytes.data() + P.Off, Size);
  for (unsigned B = 0; B < Size; ++B)
    if (O.Writer[P.Off + B] >= 0)
      Deps.push_back(O.Writer[P.Off + B]);
  if (T->isPointerTy())
    return fail("a pointer loaded from memory");
  return fromBits(Bits, T);
}

Error Interpreter::storeTo(const Val &P, const Val &V, Type *T, int N) {
  if (P.K != Val::Ptr || P.Obj < 0 || Memory[P.Obj].Global)
    return fail("a store through an unknown pointer");
  Object &O = Memory[P.Obj];
  unsigned Size = unsigned(DL.getTypeStoreSize(T));
  if (P.Off < 0 || P.Off + Size > O.Bytes.size())
    return fail("a store outside its object");
  uint64_t Bits = bitsOf(V, T);
  std::memcpy(O.Bytes.data() + P.Off, &Bits, Size);
  for (unsigned B = 0; B < Size; ++B)
    O.Writer[P.Off + B] = N;
  if (O.Output)
    Nodes[N].Root = true;
  return Error::success();
}

/// The value of an expanded instruction (ExpandedOps).
double expandedValue(StringRef Op, ArrayRef<Val> A) {
  const ExpandedOpKind *K = expandedOpKind(Op);
  assert(K && "an expanded op the list does not have");
  return K->Value(A[0].F, A.size() > 1 ? A[1].F : 0.0);
}

/// An inline-asm statement that is one expanded instruction on its input
/// ("rcp.approx.ftz.f32 $0,$1;", as libdevice writes them): the table's
/// name for it ("rcp.approx.f32"), or "".
std::string asmExpandedOp(const CallInst &CI) {
  const auto *IA = cast<InlineAsm>(CI.getCalledOperand());
  StringRef Text = StringRef(IA->getAsmString()).trim();
  auto [Op, Operands] = Text.split(' ');
  if (Operands.trim().rtrim(';').trim() != "$0,$1" &&
      Operands.trim().rtrim(';').trim() != "$0, $1")
    return "";
  std::string Name = Op.str();
  size_t Ftz = Name.find(".ftz");
  if (Ftz != std::string::npos && Name.find(".f64") == std::string::npos)
    Name.erase(Ftz, 4);
  return expandedOpKind(Name) && ExpansionTable::builtin().find(Name) ? Name
                                                                      : "";
}

/// A floating-point value converted to a W-bit integer as PTX's cvt does:
/// NaN to 0, out-of-range values saturated (never C++'s undefined cast).
APInt toInteger(double X, unsigned W, bool Signed) {
  if (std::isnan(X))
    return APInt(W, 0);
  APInt Lo = Signed ? APInt::getSignedMinValue(W) : APInt::getMinValue(W);
  APInt Hi = Signed ? APInt::getSignedMaxValue(W) : APInt::getMaxValue(W);
  double LoD = Signed ? double(Lo.getSExtValue()) : 0.0;
  double HiD = Signed ? double(Hi.getSExtValue()) : double(Hi.getZExtValue());
  if (X <= LoD)
    return Lo;
  if (X >= HiD)
    return Hi;
  return Signed ? APInt(W, uint64_t(int64_t(X)), true) : APInt(W, uint64_t(X));
}

double roundAs(double X, StringRef Mode) {
  if (Mode == "rz")
    return std::trunc(X);
  if (Mode == "rm")
    return std::floor(X);
  if (Mode == "rp")
    return std::ceil(X);
  return std::nearbyint(X);
}

/// Intrinsics: the value (rounding modes other than nearest are
/// approximated; only branch decisions depend on them) and the cost.
Expected<std::pair<Val, ExecutedCost>>
Interpreter::intrinsic(const CallInst &CI, ArrayRef<Val> A) {
  StringRef Name = CI.getCalledFunction()->getName();
  Type *T = CI.getType();
  auto F = [&](unsigned I) { return A[I].F; };
  auto Ret = [&](double X, ExecutedCost C = {}) {
    return std::make_pair(fpVal(X, T), std::move(C));
  };
  auto RetI = [&](const APInt &X) {
    return std::make_pair(intVal(X), ExecutedCost{});
  };
  // Expanded instructions: their value, and their cost from the table.
  std::string Op = expandedPtxOp(CI, Mode);
  if (!Op.empty()) {
    auto C = expansionCost(Op);
    if (!C)
      return C.takeError();
    return Ret(expandedValue(Op, A), *C);
  }
  StringRef N = Name;
  N.consume_front("llvm.");
  bool Nvvm = N.consume_front("nvvm.");
  StringRef Base = N.split('.').first;
  switch (CI.getIntrinsicID()) {
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    return Ret(std::fma(F(0), F(1), F(2)), flops(T, 2));
  case Intrinsic::fabs:
    return Ret(std::fabs(F(0)));
  case Intrinsic::minnum:
  case Intrinsic::minimum:
    return Ret(std::fmin(F(0), F(1)));
  case Intrinsic::maxnum:
  case Intrinsic::maximum:
    return Ret(std::fmax(F(0), F(1)));
  case Intrinsic::copysign:
    return Ret(std::copysign(F(0), F(1)));
  case Intrinsic::floor:
    return Ret(std::floor(F(0)));
  case Intrinsic::ceil:
    return Ret(std::ceil(F(0)));
  case Intrinsic::trunc:
    return Ret(std::trunc(F(0)));
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::roundeven:
    return Ret(std::nearbyint(F(0)));
  case Intrinsic::round:
    return Ret(std::round(F(0)));
  case Intrinsic::ctlz:
    return RetI(APInt(A[0].I.getBitWidth(), A[0].I.countl_zero()));
  case Intrinsic::cttz:
    return RetI(APInt(A[0].I.getBitWidth(), A[0].I.countr_zero()));
  case Intrinsic::ctpop:
    return RetI(APInt(A[0].I.getBitWidth(), A[0].I.popcount()));
  case Intrinsic::bitreverse:
    return RetI(A[0].I.reverseBits());
  case Intrinsic::smin:
    return RetI(APIntOps::smin(A[0].I, A[1].I));
  case Intrinsic::smax:
    return RetI(APIntOps::smax(A[0].I, A[1].I));
  case Intrinsic::umin:
    return RetI(APIntOps::umin(A[0].I, A[1].I));
  case Intrinsic::umax:
    return RetI(APIntOps::umax(A[0].I, A[1].I));
  case Intrinsic::abs:
    return RetI(A[0].I.abs());
  case Intrinsic::fshl:
  case Intrinsic::fshr: {
    unsigned W = A[0].I.getBitWidth();
    unsigned S = unsigned(A[2].I.urem(W));
    APInt Hi = A[0].I, Lo = A[1].I;
    if (!S)
      return RetI(CI.getIntrinsicID() == Intrinsic::fshl ? Hi : Lo);
    return RetI(CI.getIntrinsicID() == Intrinsic::fshl
                    ? Hi.shl(S) | Lo.lshr(W - S)
                    : Hi.shl(W - S) | Lo.lshr(S));
  }
  default:
    break;
  }
  if (!Nvvm)
    return fail("the intrinsic '" + Name + "'");
  return nvvmIntrinsic(CI, N, A);
}

/// llvm.nvvm.* (Name without that prefix): arithmetic with a rounding mode
/// counts as its op; conversions, bit moves and selections count nothing.
Expected<std::pair<Val, ExecutedCost>>
Interpreter::nvvmIntrinsic(const CallInst &CI, StringRef N, ArrayRef<Val> A) {
  StringRef Name = CI.getCalledFunction()->getName();
  Type *T = CI.getType();
  StringRef Base = N.split('.').first;
  auto F = [&](unsigned I) { return A[I].F; };
  auto Ret = [&](double X, ExecutedCost C = {}) {
    return std::make_pair(fpVal(X, T), std::move(C));
  };
  auto RetI = [&](const APInt &X) {
    return std::make_pair(intVal(X), ExecutedCost{});
  };
  if (Base == "fma")
    return Ret(std::fma(F(0), F(1), F(2)), flops(T, 2));
  if (Base == "mul")
    return Ret(F(0) * F(1), flops(T, 1));
  if (Base == "add")
    return Ret(F(0) + F(1), flops(T, 1));
  if (Base == "fabs")
    return Ret(std::fabs(F(0)));
  if (Base == "saturate")
    return Ret(std::fmin(std::fmax(F(0), 0.0), 1.0));
  if (Base == "fmin")
    return Ret(std::fmin(F(0), F(1)));
  if (Base == "fmax")
    return Ret(std::fmax(F(0), F(1)));
  if (Base == "floor")
    return Ret(std::floor(F(0)));
  if (Base == "ceil")
    return Ret(std::ceil(F(0)));
  if (Base == "trunc")
    return Ret(std::trunc(F(0)));
  if (Base == "round")
    return Ret(std::round(F(0)));
  if (Base == "d2i" && (N.ends_with(".lo") || N.ends_with(".hi"))) {
    uint64_t B = bitsOf(A[0], CI.getArgOperand(0)->getType());
    return RetI(APInt(32, N.ends_with(".hi") ? B >> 32 : B & 0xffffffffu));
  }
  if (Base == "lohi") {
    uint64_t B = A[0].I.getZExtValue() | (A[1].I.getZExtValue() << 32);
    return std::make_pair(fromBits(B, T), ExecutedCost{});
  }
  if (Base == "mulhi") {
    unsigned W = A[0].I.getBitWidth();
    bool Signed = N.contains(".i") || N.contains(".ll");
    APInt P = Signed ? A[0].I.sext(2 * W) * A[1].I.sext(2 * W)
                     : A[0].I.zext(2 * W) * A[1].I.zext(2 * W);
    return RetI(P.lshr(W).trunc(W));
  }
  if (Base == "mul24") {
    APInt X = A[0].I.trunc(24), Y = A[1].I.trunc(24);
    bool Signed = N.contains(".i");
    return RetI(Signed ? X.sext(32) * Y.sext(32) : X.zext(32) * Y.zext(32));
  }
  // Conversions: nvvm.<from>2<to>.<rounding>, f/d/i/ui/ll/ull.
  if (Base.contains('2') && !Base.starts_with("ex") &&
      !Base.starts_with("lg")) {
    auto [From, To] = Base.split('2');
    StringRef Rounding = N.split('.').second.split('.').first;
    if (From == "f" || From == "d") {
      double R = roundAs(F(0), Rounding);
      if (T->isIntegerTy())
        return RetI(
            toInteger(R, T->getIntegerBitWidth(), To == "i" || To == "ll"));
      return Ret(R);
    }
    bool Signed = From == "i" || From == "ll";
    double X =
        Signed ? double(A[0].I.getSExtValue()) : double(A[0].I.getZExtValue());
    return Ret(X);
  }
  // prmt (byte permute, __byte_perm): byte i of the result is byte
  // c[4i+2:4i] of {b, a}, its sign replicated when c[4i+3] is set.
  if (N == "prmt") {
    uint64_t X = A[0].I.getZExtValue() | (A[1].I.getZExtValue() << 32);
    uint64_t Sel = A[2].I.getZExtValue(), R = 0;
    for (unsigned I = 0; I < 4; ++I) {
      unsigned C = (Sel >> (4 * I)) & 0xF;
      uint64_t Byte = (X >> (8 * (C & 7))) & 0xFF;
      if (C & 8)
        Byte = (Byte & 0x80) ? 0xFF : 0;
      R |= Byte << (8 * I);
    }
    return RetI(APInt(32, R));
  }
  if (Base == "bitcast")
    return std::make_pair(
        fromBits(bitsOf(A[0], CI.getArgOperand(0)->getType()), T),
        ExecutedCost{});
  return fail("the intrinsic '" + Name + "'");
}

/// The operands an instruction used: their values and the nodes that made
/// them.
struct Operands {
  SmallVector<Val, 4> A;
  SmallVector<int, 4> D;
};

Error Interpreter::take(Frame &Fr, const Value *V, Operands &O) {
  auto R = operand(Fr, V);
  if (!R)
    return R.takeError();
  O.A.push_back(R->first);
  O.D.push_back(R->second);
  return Error::success();
}

Expected<std::pair<Val, int>>
Interpreter::call(const Function &F, ArrayRef<std::pair<Val, int>> Args,
                  unsigned Depth) {
  if (Depth > DepthLimit)
    return fail("calls nested deeper than " + Twine(DepthLimit));
  if (F.isDeclaration())
    return fail("a call to '" + F.getName() + "', which has no body");
  Frame Fr;
  for (const Argument &A : F.args())
    Fr[&A] = Args[A.getArgNo()];
  const BasicBlock *BB = &F.getEntryBlock(), *Pred = nullptr;
  while (true) {
    ++Runs[BB];
    // Phis read their values as the block is entered.
    SmallVector<std::pair<const PHINode *, std::pair<Val, int>>, 4> Phis;
    for (const PHINode &P : BB->phis()) {
      auto In = operand(Fr, P.getIncomingValueForBlock(Pred));
      if (!In)
        return In.takeError();
      Phis.push_back({&P, {In->first, node(&P, {In->second})}});
    }
    for (auto &[P, V] : Phis)
      Fr[P] = V;
    for (const Instruction &I : *BB) {
      if (isa<PHINode>(I) || isa<DbgInfoIntrinsic>(I))
        continue;
      if (++Steps > StepLimit)
        return fail("more than " + Twine(StepLimit) + " steps");
      if (auto *Ret = dyn_cast<ReturnInst>(&I)) {
        if (!Ret->getReturnValue())
          return std::make_pair(Val(), -1);
        return operand(Fr, Ret->getReturnValue());
      }
      if (I.isTerminator()) {
        auto Next = successor(I, Fr);
        if (!Next)
          return Next.takeError();
        Pred = BB;
        BB = *Next;
        break;
      }
      if (Error E = execute(I, Fr, Depth))
        return std::move(E);
    }
  }
}

/// The block a branch or switch goes to; the condition's node is a root
/// (the work that decides a branch executes).
Expected<const BasicBlock *> Interpreter::successor(const Instruction &I,
                                                    Frame &Fr) {
  Operands O;
  if (auto *Br = dyn_cast<BranchInst>(&I)) {
    if (Br->isUnconditional())
      return Br->getSuccessor(0);
    if (Error E = take(Fr, Br->getCondition(), O))
      return std::move(E);
    Nodes[node(&I, O.D)].Root = true;
    return Br->getSuccessor(O.A[0].I.isZero() ? 1 : 0);
  }
  if (auto *Sw = dyn_cast<SwitchInst>(&I)) {
    if (Error E = take(Fr, Sw->getCondition(), O))
      return std::move(E);
    Nodes[node(&I, O.D)].Root = true;
    for (auto Case : Sw->cases())
      if (Case.getCaseValue()->getValue() == O.A[0].I)
        return Case.getCaseSuccessor();
    return Sw->getDefaultDest();
  }
  if (isa<UnreachableInst>(I))
    return fail("an unreachable path");
  return fail(Twine("'") + I.getOpcodeName() + "'");
}

/// Runs one instruction that is not a terminator, binding its result.
Error Interpreter::execute(const Instruction &I, Frame &Fr, unsigned Depth) {
  Operands O;
  if (auto *Sel = dyn_cast<SelectInst>(&I)) {
    // The arm not taken is not an operand: what only it needs is not run.
    if (Error E = take(Fr, Sel->getCondition(), O))
      return E;
    bool T = !O.A[0].I.isZero();
    if (Error E = take(Fr, T ? Sel->getTrueValue() : Sel->getFalseValue(), O))
      return E;
    Fr[&I] = {O.A[1], node(&I, O.D)};
    return Error::success();
  }
  if (auto *CI = dyn_cast<CallInst>(&I))
    return callInst(*CI, Fr, Depth);
  if (isa<AllocaInst>(I) || isa<LoadInst>(I) || isa<StoreInst>(I) ||
      isa<GetElementPtrInst>(I))
    return memoryInst(I, Fr);
  for (const Value *Op : I.operands())
    if (Error E = take(Fr, Op, O))
      return E;
  auto R = arithmetic(I, O.A);
  if (!R)
    return R.takeError();
  Fr[&I] = {R->first, node(&I, O.D, std::move(R->second))};
  return Error::success();
}

Error Interpreter::callInst(const CallInst &CI, Frame &Fr, unsigned Depth) {
  Operands O;
  if (CI.isInlineAsm()) {
    std::string Op = asmExpandedOp(CI);
    if (Op.empty())
      return fail("inline assembly");
    if (Error E = take(Fr, CI.getArgOperand(0), O))
      return E;
    auto C = expansionCost(Op);
    if (!C)
      return C.takeError();
    Fr[&CI] = {fpVal(expandedValue(Op, O.A), CI.getType()), node(&CI, O.D, *C)};
    return Error::success();
  }
  const Function *Callee = CI.getCalledFunction();
  if (!Callee)
    return fail("an indirect call");
  if (Callee->getIntrinsicID() == Intrinsic::lifetime_start ||
      Callee->getIntrinsicID() == Intrinsic::lifetime_end ||
      Callee->getIntrinsicID() == Intrinsic::assume)
    return Error::success();
  for (const Value *Arg : CI.args())
    if (Error E = take(Fr, Arg, O))
      return E;
  if (!Callee->isIntrinsic()) {
    auto Body = Resolve(Callee->getName());
    if (!Body)
      return Body.takeError();
    SmallVector<std::pair<Val, int>, 4> Args;
    for (unsigned I = 0; I < O.A.size(); ++I)
      Args.push_back({O.A[I], O.D[I]});
    auto R = call(**Body, Args, Depth + 1);
    if (!R)
      return R.takeError();
    Fr[&CI] = {R->first, node(&CI, {R->second})};
    return Error::success();
  }
  auto R = intrinsic(CI, O.A);
  if (!R)
    return R.takeError();
  Fr[&CI] = {R->first, node(&CI, O.D, std::move(R->second))};
  return Error::success();
}

Error Interpreter::memoryInst(const Instruction &I, Frame &Fr) {
  Operands O;
  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    auto Size = AI->getAllocationSize(DL);
    if (!Size || Size->isScalable())
      return fail("an alloca of unknown size");
    Object Obj;
    Obj.Bytes.assign(Size->getFixedValue(), 0);
    Obj.Writer.assign(Obj.Bytes.size(), -1);
    Memory.push_back(std::move(Obj));
    Val P;
    P.K = Val::Ptr;
    P.Obj = int(Memory.size()) - 1;
    Fr[&I] = {P, -1};
    return Error::success();
  }
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    if (Error E = take(Fr, LI->getPointerOperand(), O))
      return E;
    auto V = loadFrom(O.A[0], LI->getType(), O.D);
    if (!V)
      return V.takeError();
    Fr[&I] = {*V, node(&I, O.D)};
    return Error::success();
  }
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    if (Error E = take(Fr, SI->getValueOperand(), O))
      return E;
    if (Error E = take(Fr, SI->getPointerOperand(), O))
      return E;
    return storeTo(O.A[1], O.A[0], SI->getValueOperand()->getType(),
                   node(&I, O.D));
  }
  auto *GEP = cast<GetElementPtrInst>(&I);
  if (Error E = take(Fr, GEP->getPointerOperand(), O))
    return E;
  SmallMapVector<Value *, APInt, 4> Variable;
  APInt Const(64, 0);
  if (!GEP->collectOffset(DL, 64, Variable, Const))
    return fail("an address it cannot compute");
  Val P = O.A[0];
  P.Off += Const.getSExtValue();
  for (auto &[V, Scale] : Variable) {
    if (Error E = take(Fr, V, O))
      return E;
    P.Off += O.A.back().I.getSExtValue() * Scale.getSExtValue();
  }
  Fr[&I] = {P, node(&I, O.D)};
  return Error::success();
}

/// Arithmetic, comparisons and casts: the value and what it executes.
Expected<std::pair<Val, ExecutedCost>>
Interpreter::arithmetic(const Instruction &I, ArrayRef<Val> A) {
  Type *T = I.getType();
  if (auto *BO = dyn_cast<BinaryOperator>(&I))
    return T->isFloatingPointTy() ? floatBinary(*BO, A) : intBinary(*BO, A);
  if (I.getOpcode() == Instruction::FNeg)
    return std::make_pair(fpVal(-A[0].F, T), ExecutedCost{});
  if (auto *Cmp = dyn_cast<ICmpInst>(&I))
    return std::make_pair(
        intVal(
            APInt(1, ICmpInst::compare(A[0].I, A[1].I, Cmp->getPredicate()))),
        ExecutedCost{});
  if (auto *Cmp = dyn_cast<FCmpInst>(&I)) {
    APFloat X(A[0].F), Y(A[1].F);
    bool Lossy;
    if (Cmp->getOperand(0)->getType()->isFloatTy()) {
      X.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &Lossy);
      Y.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &Lossy);
    }
    return std::make_pair(
        intVal(APInt(1, FCmpInst::compare(X, Y, Cmp->getPredicate()))),
        ExecutedCost{});
  }
  if (auto *Cast = dyn_cast<CastInst>(&I)) {
    if (!T->isFloatingPointTy() && !T->isIntegerTy() && !T->isPointerTy())
      return fail("a vector or aggregate value");
    auto R = convert(*Cast, A[0]);
    if (!R)
      return R.takeError();
    return std::make_pair(*R, ExecutedCost{});
  }
  if (isa<FreezeInst>(I))
    return std::make_pair(A[0], ExecutedCost{});
  return fail(Twine("'") + I.getOpcodeName() + "'");
}

Expected<std::pair<Val, ExecutedCost>>
Interpreter::floatBinary(const BinaryOperator &BO, ArrayRef<Val> A) {
  Type *T = BO.getType();
  double X = A[0].F, Y = A[1].F;
  switch (BO.getOpcode()) {
  case Instruction::FAdd:
    return std::make_pair(fpVal(X + Y, T), flops(T, 1));
  case Instruction::FSub:
    return std::make_pair(fpVal(X - Y, T), flops(T, 1));
  case Instruction::FMul:
    return std::make_pair(fpVal(X * Y, T), flops(T, 1));
  case Instruction::FDiv: {
    auto E = expansionCost(expandedPtxOp(BO, Mode));
    if (!E)
      return E.takeError();
    return std::make_pair(fpVal(X / Y, T), *E);
  }
  default:
    return fail(Twine("'") + BO.getOpcodeName() + "'");
  }
}

Expected<std::pair<Val, ExecutedCost>>
Interpreter::intBinary(const BinaryOperator &BO, ArrayRef<Val> A) {
  const APInt &X = A[0].I, &Y = A[1].I;
  unsigned W = X.getBitWidth();
  unsigned Shift = unsigned(std::min<uint64_t>(Y.getZExtValue(), W));
  auto Ret = [](const APInt &R) {
    return std::make_pair(intVal(R), ExecutedCost{});
  };
  switch (BO.getOpcode()) {
  case Instruction::Add:
    return Ret(X + Y);
  case Instruction::Sub:
    return Ret(X - Y);
  case Instruction::Mul:
    return Ret(X * Y);
  case Instruction::And:
    return Ret(X & Y);
  case Instruction::Or:
    return Ret(X | Y);
  case Instruction::Xor:
    return Ret(X ^ Y);
  case Instruction::Shl:
    return Ret(X.shl(Shift));
  case Instruction::LShr:
    return Ret(X.lshr(Shift));
  case Instruction::AShr:
    return Ret(X.ashr(Shift));
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
    if (Y.isZero())
      return fail("an integer division by zero");
    return Ret(BO.getOpcode() == Instruction::UDiv   ? X.udiv(Y)
               : BO.getOpcode() == Instruction::SDiv ? X.sdiv(Y)
               : BO.getOpcode() == Instruction::URem ? X.urem(Y)
                                                     : X.srem(Y));
  default:
    return fail(Twine("'") + BO.getOpcodeName() + "'");
  }
}

Expected<Val> Interpreter::convert(const CastInst &C, const Val &V) {
  Type *T = C.getType();
  switch (C.getOpcode()) {
  case Instruction::Trunc:
    return intVal(V.I.trunc(T->getIntegerBitWidth()));
  case Instruction::ZExt:
    return intVal(V.I.zext(T->getIntegerBitWidth()));
  case Instruction::SExt:
    return intVal(V.I.sext(T->getIntegerBitWidth()));
  case Instruction::FPToSI:
  case Instruction::FPToUI:
    return intVal(toInteger(std::trunc(V.F), T->getIntegerBitWidth(),
                            C.getOpcode() == Instruction::FPToSI));
  case Instruction::SIToFP:
    return fpVal(double(V.I.getSExtValue()), T);
  case Instruction::UIToFP:
    return fpVal(double(V.I.getZExtValue()), T);
  case Instruction::FPTrunc:
  case Instruction::FPExt:
    return fpVal(V.F, T);
  case Instruction::BitCast:
    if (T->isPointerTy())
      return V;
    return fromBits(bitsOf(V, C.getSrcTy()), T);
  case Instruction::AddrSpaceCast:
    return V;
  default:
    return fail(Twine("'") + C.getOpcodeName() + "'");
  }
}

/// Counts the nodes the roots depend on, fusing each multiply whose every
/// counted user is an add or subtract into those (FFMA: 2 FLOPs where the
/// IR has 1 + 1).
ExecutedCost Interpreter::count() {
  std::vector<bool> Live(Nodes.size(), false);
  std::vector<int> Work;
  for (unsigned N = 0; N < Nodes.size(); ++N)
    if (Nodes[N].Root)
      Work.push_back(int(N));
  while (!Work.empty()) {
    int N = Work.back();
    Work.pop_back();
    if (Live[N])
      continue;
    Live[N] = true;
    for (int D : Nodes[N].Deps)
      Work.push_back(D);
  }
  auto Is = [&](int N, unsigned Opcode) {
    return Nodes[N].I && Nodes[N].I->getOpcode() == Opcode;
  };
  std::vector<int> Users(Nodes.size(), 0), Fusers(Nodes.size(), 0);
  std::vector<bool> Fuses(Nodes.size(), false);
  for (unsigned N = 0; N < Nodes.size(); ++N) {
    if (!Live[N])
      continue;
    for (int D : Nodes[N].Deps)
      ++Users[D];
    if (!Is(N, Instruction::FAdd) && !Is(N, Instruction::FSub))
      continue;
    // The add's first multiply operand is the one fused.
    for (int D : Nodes[N].Deps)
      if (Is(D, Instruction::FMul) &&
          Nodes[D].I->getType() == Nodes[N].I->getType()) {
        Fuses[N] = true;
        ++Fusers[D];
        break;
      }
  }
  ExecutedCost Total;
  for (unsigned N = 0; N < Nodes.size(); ++N) {
    if (!Live[N])
      continue;
    if (Is(N, Instruction::FMul) && Users[N] && Users[N] == Fusers[N])
      continue;
    ExecutedCost C = Nodes[N].Cost;
    if (Fuses[N])
      C = flops(Nodes[N].I->getType(), 2);
    Total += C;
  }
  return Total;
}

Expected<ExecutedCost> Interpreter::run(const Function &F) {
  // Ordinary arguments: normal numbers in the functions' common domain,
  // away from zero, one and the special cases (the middles of the ranges
  // tools/validate/mathbench measured the hardware on: a in [1, 2), b in
  // [0.5, 4)); pointers to scratch the results land in.
  static const double Reals[] = {1.5, 2.25, 0.75, 3.0};
  static const int64_t Ints[] = {3, 2, 5, 7};
  SmallVector<std::pair<Val, int>, 4> Args;
  unsigned Real = 0, Int = 0;
  for (const Argument &A : F.args()) {
    Type *T = A.getType();
    Val V;
    if (T->isFloatTy() || T->isDoubleTy()) {
      V = fpVal(Reals[Real++ % 4], T);
    } else if (T->isIntegerTy()) {
      V = intVal(APInt(T->getIntegerBitWidth(), Ints[Int++ % 4], true));
    } else if (T->isPointerTy()) {
      Object O;
      O.Bytes.assign(64, 0);
      O.Writer.assign(64, -1);
      O.Output = true;
      Memory.push_back(std::move(O));
      V.K = Val::Ptr;
      V.Obj = int(Memory.size()) - 1;
    } else {
      return fail("an argument of a type it does not evaluate");
    }
    Args.push_back({V, -1});
  }
  auto R = call(F, Args, 0);
  if (!R)
    return R.takeError();
  if (R->second >= 0)
    Nodes[R->second].Root = true;
  return count();
}

} // namespace

Expected<ExecutedCost> roofline::interpretForCost(const Function &F,
                                                  const MathMode &Mode) {
  const Module *M = F.getParent();
  Interpreter I(M->getDataLayout(), Mode,
                [M](StringRef Name) -> Expected<const Function *> {
                  const Function *G = M->getFunction(Name);
                  if (!G || G->isDeclaration())
                    return createStringError(inconvertibleErrorCode(),
                                             "a call to '" + Name +
                                                 "', which has no body");
                  return G;
                });
  return I.run(F);
}

namespace {

/// libdevice, loaded once per file and mode, each function prepared (the
/// __nvvm_reflect queries answered, then folded) when first run.
class Libdevice {
public:
  static Libdevice &get() {
    static Libdevice L;
    return L;
  }

  Expected<ExecutedCost> cost(StringRef Name, const MathMode &Mode,
                              StringRef Path) {
    std::lock_guard<std::mutex> G(Lock);
    std::string Key = keyOf(Mode, Path);
    auto &Costs = Cache[Key];
    auto It = Costs.find(Name);
    if (It == Costs.end()) {
      auto C = compute(Name, Mode, Path, Key);
      std::pair<std::optional<ExecutedCost>, std::string> Entry;
      if (C)
        Entry.first = *C;
      else
        Entry.second = toString(C.takeError());
      It = Costs.try_emplace(Name.str(), std::move(Entry)).first;
    }
    if (!It->second.first)
      return createStringError(inconvertibleErrorCode(), It->second.second);
    return *It->second.first;
  }

  Error withRun(StringRef Name, const MathMode &Mode, StringRef Path,
                function_ref<Error(const Function &, const BlockRuns &)> Use) {
    std::lock_guard<std::mutex> G(Lock);
    auto R = runFunction(Name, Mode, Path, keyOf(Mode, Path));
    if (!R)
      return R.takeError();
    return Use(*R->F, R->Runs);
  }

private:
  static std::string keyOf(const MathMode &Mode, StringRef Path) {
    return Path.str() + "|" + std::to_string(Mode.Ftz) +
           std::to_string(Mode.Approx) + "|" + std::to_string(Mode.Arch);
  }

  struct Loaded {
    std::unique_ptr<Module> M;
    std::set<const Function *> Prepared;
  };

  Expected<ExecutedCost> compute(StringRef Name, const MathMode &Mode,
                                 StringRef Path, const std::string &Key) {
    auto R = runFunction(Name, Mode, Path, Key);
    if (!R)
      return R.takeError();
    return R->Cost;
  }

  struct Run {
    ExecutedCost Cost;
    const Function *F = nullptr;
    BlockRuns Runs;
  };

  /// Runs Name (its fast version under fast math) on ordinary arguments.
  Expected<Run> runFunction(StringRef Name, const MathMode &Mode,
                            StringRef Path, const std::string &Key) {
    auto L = load(Path, Key);
    if (!L)
      return L.takeError();
    Loaded &Lib = **L;
    auto Prepared = [&](StringRef N) -> Expected<const Function *> {
      Function *F = Lib.M->getFunction(N);
      if (!F || F->isDeclaration())
        return createStringError(inconvertibleErrorCode(),
                                 "'" + N + "' is not in libdevice");
      if (Lib.Prepared.insert(F).second)
        prepare(*F, Mode);
      return F;
    };
    // nvcc's -use_fast_math calls the fast version of every function that
    // has one (expf is __expf); clang's headers do so for some only.
    std::string Called = Name.str();
    if (Mode.Approx && Name.starts_with("__nv_") &&
        !Name.starts_with("__nv_fast_"))
      if (Function *Fast =
              Lib.M->getFunction(("__nv_fast_" + Name.drop_front(5)).str());
          Fast && !Fast->isDeclaration())
        Called = Fast->getName().str();
    auto F = Prepared(Called);
    if (!F)
      return F.takeError();
    Interpreter I(Lib.M->getDataLayout(), Mode, Prepared);
    auto C = I.run(**F);
    if (!C)
      return createStringError(inconvertibleErrorCode(),
                               "libdevice's '" + Name +
                                   "' was not run: " + toString(C.takeError()));
    return Run{*C, *F, I.runs()};
  }

  Expected<Loaded *> load(StringRef Path, const std::string &Key) {
    auto It = Modules.find(Key);
    if (It != Modules.end())
      return &It->second;
    if (Path.empty())
      return createStringError(inconvertibleErrorCode(),
                               "no libdevice to count library math from");
    auto Buf = MemoryBuffer::getFile(Path);
    if (!Buf)
      return createStringError(inconvertibleErrorCode(),
                               "cannot read libdevice '" + Path +
                                   "': " + Buf.getError().message());
    auto M = parseBitcodeFile((*Buf)->getMemBufferRef(), Context);
    if (!M)
      return createStringError(inconvertibleErrorCode(),
                               "cannot read libdevice '" + Path +
                                   "': " + toString(M.takeError()));
    Loaded &L = Modules[Key];
    L.M = std::move(*M);
    return &L;
  }

  /// Answers __nvvm_reflect as the compile would, then folds what that
  /// decides (the other paths, constant arithmetic).
  static void prepare(Function &F, const MathMode &Mode) {
    SmallVector<CallInst *, 8> Reflects;
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (Callee->getName() == "__nvvm_reflect")
            Reflects.push_back(CI);
    for (CallInst *CI : Reflects) {
      StringRef Query;
      if (auto *GV = dyn_cast<GlobalVariable>(
              CI->getArgOperand(0)->stripPointerCasts()))
        if (auto *Data =
                dyn_cast_or_null<ConstantDataSequential>(GV->getInitializer()))
          Query = Data->getAsCString();
      int Answer = Query == "__CUDA_FTZ"         ? Mode.Ftz
                   : Query == "__CUDA_PREC_SQRT" ? !Mode.Approx
                   : Query == "__CUDA_ARCH"      ? int(Mode.Arch)
                                                 : 0;
      CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), Answer));
      CI->eraseFromParent();
    }
    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PassBuilder PB;
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    FunctionPassManager FPM;
    FPM.addPass(InstCombinePass(InstCombineOptions().setVerifyFixpoint(false)));
    FPM.addPass(SimplifyCFGPass());
    FPM.addPass(InstCombinePass(InstCombineOptions().setVerifyFixpoint(false)));
    FPM.run(F, FAM);
  }

  std::mutex Lock;
  LLVMContext Context;
  std::map<std::string, Loaded> Modules;
  std::map<
      std::string,
      std::map<std::string, std::pair<std::optional<ExecutedCost>, std::string>,
               std::less<>>>
      Cache;
};

} // namespace

Expected<ExecutedCost> roofline::libdeviceCallCost(StringRef Name,
                                                   const MathMode &Mode,
                                                   StringRef LibdevicePath) {
  return Libdevice::get().cost(Name, Mode, LibdevicePath);
}

Error roofline::withLibdeviceRun(
    StringRef Name, const MathMode &Mode, StringRef LibdevicePath,
    function_ref<Error(const Function &, const BlockRuns &)> Use) {
  return Libdevice::get().withRun(Name, Mode, LibdevicePath, Use);
}

/// A multiply the back end fuses into the add or subtract Add (NVPTX fuses
/// aggressively: a multiply with several users becomes one FFMA per user):
/// Add's first operand that is a multiply in its block, both allowed to
/// contract.
static const Instruction *fusedMultiply(const Instruction &Add) {
  if (Add.getOpcode() != Instruction::FAdd &&
      Add.getOpcode() != Instruction::FSub)
    return nullptr;
  if (!Add.hasAllowContract())
    return nullptr;
  for (const Value *Op : Add.operands())
    if (auto *M = dyn_cast<Instruction>(Op))
      if (M->getOpcode() == Instruction::FMul && M->hasAllowContract() &&
          M->getParent() == Add.getParent() && M->getType() == Add.getType())
        return M;
  return nullptr;
}

/// A multiply every user of which fuses it: it executes as part of them.
static bool fusedAway(const Instruction &Mul) {
  if (Mul.use_empty())
    return false;
  for (const User *U : Mul.users()) {
    auto *UI = dyn_cast<Instruction>(U);
    if (!UI || fusedMultiply(*UI) != &Mul)
      return false;
  }
  return true;
}

static unsigned lanesOf(const Type *T) {
  if (auto *V = dyn_cast<FixedVectorType>(T))
    return V->getNumElements();
  return 1;
}

bool roofline::addExecutedFlops(const Instruction &I,
                                std::map<std::string, int64_t> &Counts,
                                std::string &Why, std::string &Contention) {
  std::map<std::string, int64_t> Executed;
  auto Algorithmic = [&] {
    for (const auto &[Name, N] : Counts)
      if (StringRef(Name).starts_with(counter::FlopsPrefix) &&
          !StringRef(Name).starts_with(counter::TensorFlopsPrefix))
        Executed[counter::ExecutedFlopsPrefix +
                 Name.substr(strlen(counter::FlopsPrefix))] += N;
  };
  auto Add = [&](const ExecutedCost &C, unsigned Lanes) {
    for (const auto &[P, N] : C.Flops)
      Executed[counter::ExecutedFlopsPrefix + P] += N * Lanes;
  };
  // Unknown: the counters of the instruction's precision exist, unknown.
  auto Unknown = [&](const Twine &Reason) {
    Why = Reason.str();
    std::string P = precisionOf(I.getType()->getScalarType());
    if (P.empty())
      P = "fp32";
    Counts[counter::ExecutedFlopsPrefix + P] += 0;
    return false;
  };
  MathMode Mode = mathModeOf(*I.getFunction());
  unsigned Lanes = lanesOf(I.getType());
  switch (I.getOpcode()) {
  case Instruction::FMul:
    if (!fusedAway(I))
      Algorithmic();
    break;
  case Instruction::FAdd:
  case Instruction::FSub:
    if (fusedMultiply(I))
      Add(flops(I.getType(), 2), Lanes);
    else
      Algorithmic();
    break;
  case Instruction::FDiv:
  case Instruction::FRem: {
    std::string Op = I.getOpcode() == Instruction::FDiv ? expandedPtxOp(I, Mode)
                                                        : std::string("frem");
    auto C = expansionCost(Op);
    if (!C)
      return Unknown("flops executed: " + toString(C.takeError()));
    Add(*C, Lanes);
    break;
  }
  case Instruction::AtomicRMW: {
    // A float add on shared memory is a compare-and-swap loop with one FADD
    // per attempt; global ones are done by L2 (RED/ATOM), not an FP pipe.
    const auto &RMW = cast<AtomicRMWInst>(I);
    if (RMW.isFloatingPointOperation() &&
        memorySpaceOf(I) == MemSpace::Shared) {
      Contention =
          "atomic_retries: a floating-point atomic on shared memory is a "
          "compare-and-swap loop, one FADD per attempt; flops_executed "
          "counts one attempt (no contention), and each retry adds one (an "
          "H200 measured 1 per thread without contention, 110 with a block "
          "on one address)";
      Add(flops(RMW.getType(), 1), Lanes);
      break;
    }
    Algorithmic();
    break;
  }
  case Instruction::Call: {
    const auto &CI = cast<CallInst>(I);
    const Function *Callee = CI.getCalledFunction();
    std::string Op = expandedPtxOp(I, Mode);
    if (!Op.empty()) {
      auto C = expansionCost(Op);
      if (!C)
        return Unknown("flops executed: " + toString(C.takeError()));
      Add(*C, Lanes);
      break;
    }
    if (Callee && Callee->getName().starts_with("__nv_")) {
      auto C = libdeviceCallCost(Callee->getName(), Mode,
                                 libdevicePathOf(*I.getModule()));
      if (!C)
        return Unknown("flops executed by '" + Callee->getName() +
                       "' are unknown: " + toString(C.takeError()));
      Add(*C, 1);
      break;
    }
    Algorithmic();
    break;
  }
  default:
    Algorithmic();
    break;
  }
  for (const auto &[Name, N] : Executed)
    Counts[Name] += N;
  return true;
}
