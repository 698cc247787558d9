//===- OpClassifier.cpp ---------------------------------------------------===//

#include "OpClassifier.h"
#include "CacheHintAsm.h"
#include "Counters.h"
#include "ExecutedMath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include <array>
#include <cstring>

using namespace llvm;
using namespace roofline;

namespace {

/// Precision name and lane count of a floating-point (vector) type.
std::optional<std::pair<std::string, unsigned>> fpKind(Type *T) {
  unsigned Lanes = 1;
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Lanes = VT->getNumElements();
    T = VT->getElementType();
  }
  if (T->isDoubleTy())
    return std::make_pair(std::string("fp64"), Lanes);
  if (T->isFloatTy())
    return std::make_pair(std::string("fp32"), Lanes);
  if (T->isHalfTy())
    return std::make_pair(std::string("fp16"), Lanes);
  if (T->isBFloatTy())
    return std::make_pair(std::string("bf16"), Lanes);
  return std::nullopt;
}

void addFlops(OpCounts &Out, Type *T, int64_t PerLane) {
  if (auto K = fpKind(T))
    Out[counter::FlopsPrefix + K->first] += PerLane * K->second;
}

void addDivision(OpCounts &Out, Type *T) {
  if (auto K = fpKind(T)) {
    Out[counter::FlopsPrefix + K->first] += K->second;
    Out[counter::DivPrefix + K->first] += K->second;
  }
}

void addSpecial(OpCounts &Out, StringRef Kind, Type *T) {
  unsigned Lanes = 1;
  if (auto K = fpKind(T))
    Lanes = K->second;
  Out[(counter::SpecialPrefix + Kind).str()] += Lanes;
}

enum class MathClass { Flop1, Flop2, Div, Other, Special };

/// Classifies a libdevice entry point by its base name (without __nv_ and
/// the float suffix).
MathClass classifyMathName(StringRef Base, std::string &Kind) {
  Kind = Base.str();
  if (Base == "fma" || Base == "fmaf" || Base.starts_with("fma_"))
    return MathClass::Flop2;
  if (Base.starts_with("fadd") || Base.starts_with("dadd") ||
      Base.starts_with("fmul") || Base.starts_with("dmul") ||
      Base.starts_with("fsub") || Base.starts_with("dsub"))
    return MathClass::Flop1;
  if (Base.starts_with("fdiv") || Base.starts_with("ddiv") ||
      Base.starts_with("frcp") || Base.starts_with("drcp"))
    return MathClass::Div;
  // Correctly rounded intrinsics: __fsqrt_rn is a sqrt like sqrtf.
  if (Base == "fsqrt" || Base == "dsqrt") {
    Kind = "sqrt";
    return MathClass::Special;
  }
  if (Base == "frsqrt" || Base == "drsqrt") {
    Kind = "rsqrt";
    return MathClass::Special;
  }
  static const char *OtherNames[] = {"fmax",
                                     "fmin",
                                     "fabs",
                                     "floor",
                                     "ceil",
                                     "trunc",
                                     "round",
                                     "rint",
                                     "nearbyint",
                                     "copysign",
                                     "saturate",
                                     "isnan",
                                     "isinf",
                                     "finite",
                                     "signbit",
                                     "abs",
                                     "llabs",
                                     "min",
                                     "max",
                                     "umin",
                                     "umax",
                                     "llmin",
                                     "llmax",
                                     "ullmin",
                                     "ullmax",
                                     "popc",
                                     "popcll",
                                     "clz",
                                     "clzll",
                                     "ffs",
                                     "ffsll",
                                     "brev",
                                     "brevll",
                                     "byte_perm",
                                     "mulhi",
                                     "umulhi",
                                     "mul24",
                                     "umul24",
                                     "mul64hi",
                                     "umul64hi",
                                     "sad",
                                     "usad",
                                     "hadd",
                                     "rhadd",
                                     "uhadd",
                                     "urhadd",
                                     "fdim",
                                     "modf",
                                     "frexp",
                                     "ldexp",
                                     "scalbn",
                                     "ilogb",
                                     "logb",
                                     "nextafter",
                                     "lrint",
                                     "llrint",
                                     "lround",
                                     "llround",
                                     "float2int",
                                     "int2float",
                                     "float_as_int",
                                     "int_as_float",
                                     "double2",
                                     "float2",
                                     "int2",
                                     "uint2",
                                     "ll2",
                                     "ull2",
                                     "half2",
                                     "float_as_uint",
                                     "uint_as_float",
                                     "longlong_as_double",
                                     "double_as_longlong",
                                     "fmod",
                                     "isnan",
                                     "isinf",
                                     "isfinite",
                                     "remainder",
                                     "remquo",
                                     "fns",
                                     "signbitd"};
  for (const char *N : OtherNames)
    if (Base == N || Base.starts_with(std::string(N) + "_"))
      return MathClass::Other;
  // Kind names for specials: collapse fast_ variants and rounding suffixes.
  StringRef K = Base;
  K.consume_front("fast_");
  Kind = K.str();
  return MathClass::Special;
}

void classifyMathCall(const CallBase &CB, OpCounts &Out) {
  StringRef Stripped = CB.getCalledFunction()->getName();
  Stripped.consume_front("__nv_");
  Stripped.consume_front("fast_");
  // Rounding-mode variants (__fmaf_rn, __fdiv_rz) count like the plain op.
  for (StringRef Mode : {"_rn", "_rz", "_ru", "_rd"})
    Stripped.consume_back(Mode);
  // The precision is that of the operands (isnanf returns an int).
  Type *Ty = CB.getType();
  if (!fpKind(Ty) && CB.arg_size() && fpKind(CB.getArgOperand(0)->getType()))
    Ty = CB.getArgOperand(0)->getType();
  // Float variants end in 'f' (expf, tanhf, erff) or 'd' for some double
  // predicates (isinfd); the type carries the precision.
  auto K = fpKind(Ty);
  if (K && K->first == "fp32" && Stripped.ends_with("f") && Stripped != "erf" &&
      Stripped != "fmaf")
    Stripped = Stripped.drop_back();
  else if (K && K->first == "fp64" && Stripped.starts_with("is") &&
           Stripped.ends_with("d"))
    Stripped = Stripped.drop_back();
  std::string Kind;
  Type *RetTy = Ty;
  switch (classifyMathName(Stripped, Kind)) {
  case MathClass::Flop1:
    addFlops(Out, RetTy, 1);
    return;
  case MathClass::Flop2:
    addFlops(Out, RetTy, 2);
    return;
  case MathClass::Div:
    addDivision(Out, RetTy);
    return;
  case MathClass::Other:
    return;
  case MathClass::Special:
    addSpecial(Out, Kind, RetTy);
    return;
  }
}

/// m16n8k16 -> {16, 8, 16}.
std::optional<std::array<int64_t, 3>> mmaShape(StringRef S) {
  size_t M = S.find(".m");
  while (M != StringRef::npos) {
    StringRef T = S.substr(M + 2);
    int64_t Dims[3];
    bool Ok = true;
    const char Sep[3] = {'n', 'k', '.'};
    for (int I = 0; I < 3 && Ok; ++I) {
      size_t End = I < 2 ? T.find(Sep[I]) : T.find_first_of(".,; ");
      StringRef Num = T.substr(0, End);
      Ok = !Num.empty() && !Num.getAsInteger(10, Dims[I]);
      T = End == StringRef::npos ? StringRef() : T.substr(End + 1);
    }
    if (Ok)
      return std::array<int64_t, 3>{Dims[0], Dims[1], Dims[2]};
    M = S.find(".m", M + 1);
  }
  return std::nullopt;
}

/// Precision names of PTX/intrinsic element types, with their sizes.
std::optional<std::pair<std::string, int64_t>> elementType(StringRef T) {
  return StringSwitch<std::optional<std::pair<std::string, int64_t>>>(T)
      .Case("bf16", std::make_pair(std::string("bf16"), 2))
      .Case("f16", std::make_pair(std::string("fp16"), 2))
      .Case("tf32", std::make_pair(std::string("tf32"), 4))
      .Case("f32", std::make_pair(std::string("fp32"), 4))
      .Case("f64", std::make_pair(std::string("fp64"), 8))
      .Case("s32", std::make_pair(std::string("int32"), 4))
      .Cases("s8", "u8", std::make_pair(std::string("int8"), 1))
      .Cases("s4", "u4", std::make_pair(std::string("int4"), 1))
      .Cases("e4m3", "e5m2", std::make_pair(std::string("fp8"), 1))
      .Cases("e2m3", "e3m2", std::make_pair(std::string("fp6"), 1))
      .Case("e2m1", std::make_pair(std::string("fp4"), 1))
      .Default(std::nullopt);
}

/// The element types named in a dotted intrinsic or PTX opcode, in order.
std::vector<std::pair<std::string, int64_t>> elementTypes(StringRef S) {
  SmallVector<StringRef, 16> Parts;
  S.split(Parts, '.');
  std::vector<std::pair<std::string, int64_t>> R;
  for (StringRef P : Parts) {
    P = P.split(' ').first;
    if (auto T = elementType(P))
      R.push_back(*T);
  }
  return R;
}

/// The precision an MMA's FLOPs count under (docs/counting.md): the input
/// type, with "_fp32acc" for fp16 and fp8 inputs that accumulate in f32
/// (GeForce parts run those at half the f16-accumulate rate; the GPU data
/// keys its tensor peaks the same way). \p Types are the element types the
/// opcode names, in order: D, A, B[, C] (mma.sync, wgmma, the fp8 mma
/// intrinsics); only the accumulators D, C where the inputs are f16 (wmma
/// and mma intrinsics .f32.f32, .f16.f32, ...); or the input type alone
/// (.bf16, .tf32, .s8, .f64, whose accumulators are f32, s32 or f64).
std::string
mmaPrecision(const std::vector<std::pair<std::string, int64_t>> &Types) {
  auto IsAccumulator = [](const std::pair<std::string, int64_t> &T) {
    return T.first == "fp16" || T.first == "fp32";
  };
  std::string In;
  SmallVector<std::string, 2> Acc;
  if (Types.size() >= 3) {
    In = Types[1].first;
    Acc.push_back(Types[0].first);
    if (Types.size() >= 4)
      Acc.push_back(Types[3].first);
  } else if (llvm::all_of(Types, IsAccumulator)) {
    In = "fp16";
    for (const auto &T : Types)
      Acc.push_back(T.first);
  } else {
    In = Types.front().first;
  }
  // An accumulator in f32 (D or C) makes it the f32-accumulate path.
  if ((In == "fp16" || In == "fp8") && llvm::is_contained(Acc, "fp32"))
    return In + "_fp32acc";
  return In;
}

/// A warp-wide (warpgroup-wide) MMA: 2*m*n*k FLOPs per warp, 1/32 (1/128)
/// of it per thread.
void addMma(OpCounts &Out, const std::array<int64_t, 3> &Shape,
            const std::string &InputPrecision, int64_t Threads = 32) {
  int64_t Flops = 2 * Shape[0] * Shape[1] * Shape[2];
  Out[counter::TensorFlopsPrefix + InputPrecision] += Flops / Threads;
  Out["mma"] += 1;
}

bool classifyIntrinsic(const IntrinsicInst &II, OpCounts &Out) {
  Type *T = II.getType();
  switch (II.getIntrinsicID()) {
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    addFlops(Out, T, 2);
    return true;
  case Intrinsic::sqrt:
    addSpecial(Out, "sqrt", T);
    return true;
  case Intrinsic::exp:
    addSpecial(Out, "exp", T);
    return true;
  case Intrinsic::exp2:
    addSpecial(Out, "exp2", T);
    return true;
  case Intrinsic::log:
    addSpecial(Out, "log", T);
    return true;
  case Intrinsic::log2:
    addSpecial(Out, "log2", T);
    return true;
  case Intrinsic::log10:
    addSpecial(Out, "log10", T);
    return true;
  case Intrinsic::sin:
    addSpecial(Out, "sin", T);
    return true;
  case Intrinsic::cos:
    addSpecial(Out, "cos", T);
    return true;
  case Intrinsic::tan:
    addSpecial(Out, "tan", T);
    return true;
  case Intrinsic::tanh:
    addSpecial(Out, "tanh", T);
    return true;
  case Intrinsic::pow:
  case Intrinsic::powi:
    addSpecial(Out, "pow", T);
    return true;
  case Intrinsic::memcpy:
  case Intrinsic::memmove:
  case Intrinsic::memset:
    return true; // Handled by the caller (needs address spaces).
  default:
    break;
  }
  StringRef Name = II.getCalledFunction()->getName();
  if (Name.starts_with("llvm.nvvm.wmma.") ||
      Name.starts_with("llvm.nvvm.mma.")) {
    auto Shape = mmaShape(Name.drop_front(strlen("llvm.nvvm")));
    auto Types = elementTypes(Name);
    if (Name.contains(".mma.") || Name.starts_with("llvm.nvvm.mma.")) {
      if (!Shape || Types.empty())
        return false;
      // wmma.mma names the input type (or only the accumulators for the
      // f16/f32 variants, whose inputs are f16); the fp8 mma intrinsics
      // name D, A, B, C.
      addMma(Out, *Shape, mmaPrecision(Types));
      return true;
    }
    bool IsLoad = Name.contains(".load.");
    char Which = IsLoad ? Name[Name.find(".load.") + 6] : 'd';
    if (!Shape || Types.empty())
      return false;
    int64_t Rows = Which == 'b' ? (*Shape)[2] : (*Shape)[0];
    int64_t Cols = Which == 'a' ? (*Shape)[2] : (*Shape)[1];
    int64_t Bytes = Rows * Cols * Types.back().second / 32;
    MemSpace Space = memorySpaceOf(II);
    std::string Prefix = Space == MemSpace::Shared ? counter::SharedPrefix
                                                   : counter::GlobalPrefix;
    if (IsLoad) {
      if (Space != MemSpace::Shared)
        Out[counter::GlobalLoads] += 1;
      Out[Prefix + "load_bytes"] += Bytes;
    } else {
      if (Space != MemSpace::Shared)
        Out[counter::GlobalStores] += 1;
      Out[Prefix + "store_bytes"] += Bytes;
    }
    return true;
  }
  if (Name.starts_with("llvm.nvvm.fma."))
    addFlops(Out, T, 2);
  else if (Name.starts_with("llvm.nvvm.add.") ||
           Name.starts_with("llvm.nvvm.mul."))
    addFlops(Out, T, 1);
  else if (Name.starts_with("llvm.nvvm.div.") ||
           Name.starts_with("llvm.nvvm.rcp."))
    addDivision(Out, T);
  else if (Name.starts_with("llvm.nvvm.sqrt."))
    addSpecial(Out, "sqrt", T);
  else if (Name.starts_with("llvm.nvvm.rsqrt."))
    addSpecial(Out, "rsqrt", T);
  else if (Name.starts_with("llvm.nvvm.ex2."))
    addSpecial(Out, "exp2", T);
  else if (Name.starts_with("llvm.nvvm.lg2."))
    addSpecial(Out, "log2", T);
  else if (Name.starts_with("llvm.nvvm.sin."))
    addSpecial(Out, "sin", T);
  else if (Name.starts_with("llvm.nvvm.cos."))
    addSpecial(Out, "cos", T);
  else if (Name.starts_with("llvm.nvvm.tanh."))
    addSpecial(Out, "tanh", T);
  else if (Name.starts_with("llvm.nvvm.shfl."))
    Out["shuffles"] += 1;
  else if (Name.starts_with("llvm.nvvm.atomic."))
    Out[counter::Atomics] += 1;
  return true;
}

/// Affects bit of a PTX branch: the block's other instructions run an
/// unknown number of times (never leaves classifyPtxAsm).
constexpr unsigned RepeatsBlock = 1u << 31;

/// What one execution of an inline-PTX instruction counts
/// (PtxInstructions.def).
enum class PtxEffect {
  NoData,
  Shuffle,
  Flop1,
  Flop2,
  Divide,
  Special,
  Mma,
  AsyncCopy,
  Loads,
  Stores,
  LoadsStores
};
enum class PtxMatch { Base, Prefix };

struct PtxRow {
  const char *Opcode;
  PtxMatch Match;
  PtxEffect Effect;
};

constexpr PtxRow PtxTable[] = {
#define PTX_INSTRUCTION(Opcode, Match, Effect, Section)                        \
  {Opcode, PtxMatch::Match, PtxEffect::Effect},
#include "PtxInstructions.def"
};

/// The row of an opcode ("cp.async.bulk.commit_group", "fma.rn.f32"):
/// the first prefix row it starts with (at a part boundary: a '.', or the
/// '::' of "tcgen05.fence::after_thread_sync"), else the row of its first
/// part; null for an opcode the table does not know.
const PtxRow *ptxRow(StringRef Op) {
  for (const PtxRow &R : PtxTable)
    if (R.Match == PtxMatch::Prefix && Op.starts_with(R.Opcode) &&
        (Op.size() == strlen(R.Opcode) || Op[strlen(R.Opcode)] == '.' ||
         Op.drop_front(strlen(R.Opcode)).starts_with("::")))
      return &R;
  StringRef Base = Op.split('.').first;
  for (const PtxRow &R : PtxTable)
    if (R.Match == PtxMatch::Base && Base == R.Opcode)
      return &R;
  return nullptr;
}

/// What an unmodelled PTX instruction may change. LLVM's memory attributes
/// on the asm call cannot say: an asm without volatile or a "memory" clobber
/// is readnone to LLVM (a promise about reordering, not about what the
/// instruction does; clang's own __ldcs is written so), so it is judged
/// from the opcode's row.
unsigned ptxAffects(const PtxRow *Row) {
  if (!Row)
    return AffectsAll;
  switch (Row->Effect) {
  case PtxEffect::Loads:
    return AffectsLoads;
  case PtxEffect::Stores:
    return AffectsStores;
  case PtxEffect::LoadsStores:
  case PtxEffect::AsyncCopy:
    return AffectsLoads | AffectsStores;
  default:
    return AffectsAll;
  }
}

/// The constant value of each asm operand ($N), where it is one.
using OperandValues = ArrayRef<std::optional<uint64_t>>;

bool classifyPtxInstruction(StringRef Stmt, OperandValues Values, OpCounts &Out,
                            std::string &Why, unsigned &Affects);

/// An asynchronous copy CacheHintAsm did not turn into a load and a store:
/// its bytes are unknown, and the reason says which part could not be read.
bool unreadAsyncCopy(StringRef Op, std::string &Why, unsigned &Affects) {
  Affects = AffectsLoads | AffectsStores;
  if (Op.starts_with("cp.async.bulk.tensor"))
    Why = ("TMA copy '" + Op +
           "': the box of its tensor map is not visible, so its bytes are "
           "unknown")
              .str();
  else
    Why = ("asynchronous copy '" + Op +
           "' is not read: its size is not a compile-time constant, or it "
           "has a source size, multicast, a byte mask or an address offset")
              .str();
  return false;
}

/// A guarded instruction runs only in the lanes whose predicate holds,
/// which the analysis cannot evaluate (cub's warp reductions guard their
/// adds with the in-range bit of a shuffle): work it would count is
/// unknown, not counted in every lane.
bool classifyPredicatedPtx(StringRef Guard, StringRef Stmt, StringRef Op,
                           OperandValues Values, std::string &Why,
                           unsigned &Affects) {
  OpCounts Probe;
  std::string Ignored;
  unsigned ProbeAffects = 0;
  if (!classifyPtxInstruction(Stmt, Values, Probe, Ignored, ProbeAffects)) {
    Why = Ignored;
    Affects = ProbeAffects;
    return false;
  }
  if (Probe.empty())
    return true;
  Why = ("predicated inline assembly '" + Guard + " " + Op +
         "' runs only where its predicate holds, which is not analyzed")
            .str();
  Affects = 0;
  for (auto &KV : Probe)
    Affects |= counterCategory(KV.first);
  return false;
}

/// Tensor-core PTX: mma.sync runs on a warp, wgmma.mma_async on a
/// warpgroup.
bool classifyPtxMma(StringRef Op, StringRef Operands, OpCounts &Out,
                    std::string &Why, unsigned &Affects) {
  auto Shape = mmaShape(Op);
  auto Types = elementTypes(Op);
  if (!Shape || Types.empty()) {
    Why = ("inline assembly '" + Op + "' has an unrecognized shape").str();
    Affects = AffectsCompute;
    return false;
  }
  // mma.sync...<dtype>.<atype>.<btype>.<ctype>: the inputs come second.
  // wgmma.mma_async...<dtype>.<atype>.<btype> runs on a warpgroup.
  bool Warpgroup = Op.starts_with("wgmma");
  // A sparse (2:4) MMA names the dense K but multiplies only the nonzero
  // half of A: it is counted as the dense MMA of half its K, the work the
  // dense peaks price (docs/counting.md).
  bool Sparse = Op.starts_with("mma.sp") || Op.contains(".sp.");
  std::array<int64_t, 3> Executed = *Shape;
  if (Sparse)
    Executed[2] /= 2;
  addMma(Out, Executed, mmaPrecision(Types), Warpgroup ? 128 : 32);
  if (!Warpgroup || Types.size() < 3)
    return true;
  // wgmma reads B, and A unless A is a register fragment ("d, {a0, ...},
  // b-desc, ..."), from shared memory through its descriptors: M x K and
  // N x K elements per warp group, attributed 1/128 to each thread.
  int64_t Bytes = (*Shape)[1] * (*Shape)[2] * Types[2].second;
  StringRef AfterD = Operands.split('}').second.ltrim();
  AfterD.consume_front(",");
  if (!AfterD.ltrim().starts_with("{"))
    Bytes += (*Shape)[0] * Executed[2] * Types[1].second;
  Out[counter::SharedLoadBytes] += Bytes / 128;
  return true;
}

/// tcgen05.mma.cta_group::{1,2}.kind::{f16,tf32,f8f6f4,i8} [d_tmem], a,
/// b_desc, idesc, ...: one thread issues it for its CTA (or CTA pair), and
/// its shape is in the instruction descriptor, a 32-bit operand that must
/// be a constant once helpers are inlined. Descriptor bits (PTX ISA 9.0,
/// "TensorCore 5th Generation Family Instructions", "Instruction
/// descriptor"): 4-5 the D format (1: f32), 7-9 the A format, 17-22 N >> 3,
/// 24-28 M >> 4. K is the kind's: 16 for f16, 8 for tf32, 32 for f8f6f4
/// and i8. The issuing thread counts the 2·M·N·K FLOPs and the operands
/// it reads from shared memory: B, and A unless A is in tensor memory
/// ("[a_tmem]").
bool classifyTcgen05Mma(StringRef Op, StringRef Operands, OperandValues Values,
                        OpCounts &Out, std::string &Why, unsigned &Affects) {
  Affects = AffectsCompute | AffectsLoads;
  SmallVector<StringRef, 6> Parts;
  Op.split(Parts, '.');
  StringRef Kind = Parts.size() >= 4 ? Parts[3] : "";
  int64_t K = StringSwitch<int64_t>(Kind)
                  .Case("kind::f16", 16)
                  .Case("kind::tf32", 8)
                  .Cases({"kind::f8f6f4", "kind::i8"}, 32)
                  .Default(0);
  if (Parts.size() < 4 || Parts[1] != "mma" ||
      !Parts[2].starts_with("cta_group::") || !K) {
    Why = ("inline assembly '" + Op +
           "' is not analyzed: only the dense tcgen05.mma of kinds f16, tf32, "
           "f8f6f4 and i8 is (not sparse, weight-stationary or block-scaled)")
              .str();
    return false;
  }
  SmallVector<StringRef, 6> Ops = ptxOperands(Operands);
  std::optional<uint64_t> Desc;
  if (Ops.size() >= 5) {
    StringRef D = Ops[3];
    unsigned N = 0;
    if (D.consume_front("$") && !D.getAsInteger(10, N) && N < Values.size())
      Desc = Values[N];
  }
  if (!Desc) {
    Why = ("tcgen05.mma '" + Op +
           "': its instruction descriptor is not a constant, so its shape "
           "is unknown")
              .str();
    return false;
  }
  int64_t M = ((*Desc >> 24) & 0x1F) << 4, N = ((*Desc >> 17) & 0x3F) << 3;
  unsigned AFormat = (*Desc >> 7) & 7, DFormat = (*Desc >> 4) & 3;
  std::string Prec;
  int64_t Bytes = 1;
  if (Kind == "kind::f16") {
    Prec = AFormat == 0 ? "fp16" : AFormat == 1 ? "bf16" : "";
    Bytes = 2;
  } else if (Kind == "kind::tf32") {
    Prec = "tf32";
    Bytes = 4;
  } else if (Kind == "kind::i8") {
    Prec = "int8";
  } else {
    Prec = AFormat <= 1                   ? "fp8"
           : AFormat == 3 || AFormat == 4 ? "fp6"
           : AFormat == 5                 ? "fp4"
                                          : "";
  }
  if ((M != 64 && M != 128 && M != 256) || N < 8 || N > 256 || Prec.empty()) {
    Why = ("tcgen05.mma '" + Op + "': its instruction descriptor " +
           Twine::utohexstr(*Desc) + " names no shape or type of the kind")
              .str();
    return false;
  }
  if ((Prec == "fp16" || Prec == "fp8") && DFormat == 1)
    Prec += "_fp32acc";
  addMma(Out, {M, N, K}, Prec, /*Threads=*/1);
  int64_t Shared = N * K * Bytes;
  if (!Ops[1].starts_with("["))
    Shared += M * K * Bytes;
  Out[counter::SharedLoadBytes] += Shared;
  return true;
}

/// The precision of the floating-point type among an opcode's parts
/// ("fp32" for .f32; empty for integer opcodes), and the lanes a packed
/// type (.f16x2) works on.
std::string ptxPrecision(ArrayRef<StringRef> Parts, unsigned &Lanes) {
  std::string Prec;
  Lanes = 1;
  for (StringRef P : Parts) {
    if (P == "f16x2" || P == "bf16x2" || P == "f32x2") {
      Lanes = 2;
      P = P.drop_back(2);
    }
    if (P == "f16")
      Prec = "fp16";
    else if (P == "bf16")
      Prec = "bf16";
    else if (P == "f32")
      Prec = "fp32";
    else if (P == "f64")
      Prec = "fp64";
  }
  return Prec;
}

/// Arithmetic by its row: floating-point FLOPs, divisions and special
/// functions; integer arithmetic (index math) counts nothing.
void countPtxArithmetic(StringRef Op, PtxEffect Effect, OpCounts &Out) {
  SmallVector<StringRef, 6> Parts;
  Op.split(Parts, '.');
  unsigned Lanes = 1;
  std::string Prec = ptxPrecision(Parts, Lanes);
  StringRef Base = Parts.front();
  if (Effect == PtxEffect::Special) {
    std::string Kind = Base == "ex2"   ? "exp2"
                       : Base == "lg2" ? "log2"
                                       : Base.str();
    Out[counter::SpecialPrefix + Kind] += Lanes;
    return;
  }
  if (Prec.empty())
    return;
  std::string Key = counter::FlopsPrefix + Prec;
  Out[Key] += Effect == PtxEffect::Flop2 ? 2 * Lanes : Lanes;
  if (Effect == PtxEffect::Divide)
    Out[counter::DivPrefix + Prec] += Lanes;
}

/// Counts one PTX instruction of an inline-assembly block (the CUDA headers
/// implement half2/bf162 arithmetic this way). False for instructions whose
/// effect is not modelled (memory, control flow, predicated work); Affects
/// then says what they may change.
bool classifyPtxInstruction(StringRef Stmt, OperandValues Values, OpCounts &Out,
                            std::string &Why, unsigned &Affects) {
  Stmt = Stmt.trim();
  while (Stmt.consume_front("{") || Stmt.consume_front("}"))
    Stmt = Stmt.ltrim();
  if (Stmt.empty() || Stmt.starts_with(".reg") || Stmt.starts_with("//") ||
      Stmt.ends_with(":"))
    return true;
  StringRef Guard;
  if (Stmt.starts_with("@")) {
    auto Split = Stmt.split(' ');
    Guard = Split.first;
    Stmt = Split.second.ltrim();
  }
  StringRef Op = Stmt.split(' ').first.split('\t').first;
  // A branch repeats or skips the block's other instructions: they are
  // judged by classifyPtxAsm, the branch itself does nothing.
  if (Op == "bra" || Op.starts_with("bra.") || Op.starts_with("brx.")) {
    Why = ("inline assembly branches ('" + Op +
           "'): its instructions run an unknown number of times")
              .str();
    Affects = RepeatsBlock;
    return false;
  }
  if (!Guard.empty())
    return classifyPredicatedPtx(Guard, Stmt, Op, Values, Why, Affects);
  const PtxRow *Row = ptxRow(Op);
  if (!Row || Row->Effect == PtxEffect::Loads ||
      Row->Effect == PtxEffect::Stores ||
      Row->Effect == PtxEffect::LoadsStores) {
    Why = ("inline assembly '" + Op + "' is not analyzed").str();
    Affects = ptxAffects(Row);
    return false;
  }
  switch (Row->Effect) {
  case PtxEffect::NoData:
    return true;
  case PtxEffect::Shuffle:
    Out["shuffles"] += 1;
    return true;
  case PtxEffect::AsyncCopy:
    return unreadAsyncCopy(Op, Why, Affects);
  case PtxEffect::Mma:
    if (Op.starts_with("tcgen05."))
      return classifyTcgen05Mma(Op, Stmt.drop_front(Op.size()), Values, Out,
                                Why, Affects);
    return classifyPtxMma(Op, Stmt.drop_front(Op.size()), Out, Why, Affects);
  default:
    countPtxArithmetic(Op, Row->Effect, Out);
    return true;
  }
}

/// What an instruction the analysis cannot count may touch: memory only
/// through an address operand ("[...]") or, for anything, where the asm
/// statement says so with a "memory" clobber; a call may do anything.
unsigned narrowAffects(StringRef Line, unsigned Affects, bool MemoryClobber) {
  StringRef Op = Line.trim().split(' ').first.split('\t').first;
  if (MemoryClobber || Line.contains('[') || Op == "call" ||
      Op.starts_with("call."))
    return Affects;
  return Affects & (AffectsRegisters | RepeatsBlock);
}

/// The constant value of each operand of an asm call: operands are
/// numbered direct outputs first (the call's results), then the call's
/// arguments.
SmallVector<std::optional<uint64_t>, 12> asmOperandValues(const CallBase &CB) {
  SmallVector<std::optional<uint64_t>, 12> Values;
  const auto *IA = cast<InlineAsm>(CB.getCalledOperand());
  for (const InlineAsm::ConstraintInfo &C : IA->ParseConstraints())
    if (C.Type == InlineAsm::isOutput && !C.isIndirect)
      Values.push_back(std::nullopt);
  for (const Value *A : CB.args()) {
    auto *K = dyn_cast<ConstantInt>(A);
    Values.push_back(K && K->getBitWidth() <= 64
                         ? std::optional<uint64_t>(K->getZExtValue())
                         : std::nullopt);
  }
  return Values;
}

bool classifyPtxAsm(StringRef Asm, bool MemoryClobber, OperandValues Values,
                    OpCounts &Out, std::string &Why, unsigned &Affects) {
  // Comments go first: a ';' inside one does not end an instruction.
  std::string Code;
  for (size_t I = 0; I < Asm.size(); ++I) {
    if (Asm.substr(I).starts_with("//")) {
      I = std::min(Asm.find('\n', I), Asm.size()) - 1;
      continue;
    }
    if (Asm.substr(I).starts_with("/*")) {
      size_t End = Asm.find("*/", I + 2);
      I = End == StringRef::npos ? Asm.size() : End + 1;
      continue;
    }
    Code += Asm[I];
  }
  SmallVector<StringRef, 8> Stmts;
  StringRef(Code).split(Stmts, ';');
  // Every statement is read: what the block counts is kept, and the
  // counters of each one it cannot count are unknown (the first reason is
  // reported). A branch makes everything the block counts unknown.
  bool Counted = true, Branches = false, OthersCounted = true;
  unsigned Uncounted = 0;
  OpCounts Local;
  for (StringRef St : Stmts) {
    SmallVector<StringRef, 4> Lines;
    St.split(Lines, '\n');
    for (StringRef L : Lines) {
      std::string LineWhy;
      unsigned LineAffects = 0;
      if (classifyPtxInstruction(L, Values, Local, LineWhy, LineAffects))
        continue;
      LineAffects = narrowAffects(L, LineAffects, MemoryClobber);
      if (Counted)
        Why = LineWhy;
      Counted = false;
      Branches |= (LineAffects & RepeatsBlock) != 0;
      OthersCounted &= (LineAffects & RepeatsBlock) != 0;
      Uncounted |= LineAffects & ~RepeatsBlock;
    }
  }
  // A loop of instructions that count nothing (an mbarrier wait that
  // spins until the phase flips) counts nothing however often it runs.
  if (Branches && OthersCounted && Local.empty())
    return true;
  for (auto &KV : Local) {
    Out[KV.first] += KV.second;
    if (Branches)
      Uncounted |= counterCategory(KV.first);
  }
  if (!Counted)
    Affects = Uncounted;
  return Counted;
}

} // namespace

std::optional<FragmentAccess> roofline::fragmentAccess(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return std::nullopt;
  StringRef Name = II->getCalledFunction()->getName();
  if (!Name.starts_with("llvm.nvvm.wmma.") ||
      !(Name.contains(".load.") || Name.contains(".store.")))
    return std::nullopt;
  auto Shape = mmaShape(Name.drop_front(strlen("llvm.nvvm")));
  auto Types = elementTypes(Name);
  if (!Shape || Types.empty() || II->arg_size() < 1)
    return std::nullopt;
  FragmentAccess F;
  F.IsStore = Name.contains(".store.");
  char Which = F.IsStore ? 'd' : Name[Name.find(".load.") + 6];
  F.Rows = Which == 'b' ? (*Shape)[2] : (*Shape)[0];
  F.Cols = Which == 'a' ? (*Shape)[2] : (*Shape)[1];
  F.ElemBytes = Types.back().second;
  F.RowMajor = Name.contains(".row.");
  F.Ptr = II->getArgOperand(0);
  Value *Last = II->getArgOperand(II->arg_size() - 1);
  if (Name.contains(".stride.") && Last->getType()->isIntegerTy())
    F.Stride = Last;
  return F;
}

MemSpace roofline::memorySpaceOf(const Instruction &I) {
  const Value *Ptr = getLoadStorePointerOperand(&I);
  if (!Ptr) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      Ptr = RMW->getPointerOperand();
    else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
      Ptr = CX->getPointerOperand();
    else if (auto *CB = dyn_cast<CallBase>(&I);
             CB && CB->arg_size() &&
             CB->getArgOperand(0)->getType()->isPointerTy())
      Ptr = CB->getArgOperand(0);
  }
  if (!Ptr)
    return MemSpace::None;
  return spaceOfPointer(Ptr);
}

MemSpace roofline::spaceOfPointer(const Value *Ptr) {
  switch (Ptr->getType()->getPointerAddressSpace()) {
  case 1:
    return MemSpace::Global;
  case 3:
    return MemSpace::Shared;
  case 4:
    return MemSpace::Constant;
  case 5:
    return MemSpace::Local;
  default:
    break;
  }
  // Generic pointer: decide from what it points into.
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr, 0);
  bool AllShared = !Objects.empty(), AllLocal = !Objects.empty();
  bool AllParam = !Objects.empty(), AllConst = !Objects.empty();
  for (const Value *O : Objects) {
    const Value *S = O->stripPointerCasts();
    auto *GV = dyn_cast<GlobalVariable>(S);
    AllShared &= GV && GV->getAddressSpace() == 3;
    AllLocal &= isa<AllocaInst>(S);
    // Structs passed by value live in the kernel parameter space.
    auto *Arg = dyn_cast<Argument>(S);
    AllParam &= Arg && Arg->hasByValAttr();
    AllConst &= GV && GV->getAddressSpace() == 4;
  }
  if (AllConst)
    return MemSpace::Constant;
  if (AllShared)
    return MemSpace::Shared;
  if (AllLocal)
    return MemSpace::Local;
  if (AllParam)
    return MemSpace::Constant;
  // Kernel arguments and anything else generic is global memory.
  return MemSpace::Global;
}

unsigned roofline::counterCategory(const std::string &C) {
  StringRef N = C;
  if (N.starts_with(counter::ExecutedFlopsPrefix))
    return AffectsCompute | AffectsExecuted;
  if (N == counter::SharedBytes)
    return AffectsLoads | AffectsStores;
  if (N == counter::GlobalLoads || N == counter::GlobalLoadBytes ||
      N == counter::SharedLoadBytes)
    return AffectsLoads;
  if (N == counter::GlobalStores || N == counter::GlobalStoreBytes ||
      N == counter::SharedStoreBytes || N == counter::Atomics ||
      N == counter::AtomicBytes || N == counter::SharedAtomics)
    return AffectsStores;
  if (N == "shuffles")
    return AffectsShuffles;
  return AffectsCompute;
}

// A memcpy/memmove of a constant length: the loads and stores the back end
// copies it with, in the spaces of its pointers.
static bool classifyMemIntrinsic(const MemIntrinsic &MI, OpCounts &Out,
                                 std::string &Why) {
  auto *Len = dyn_cast<ConstantInt>(MI.getLength());
  if (!Len) {
    Why = (isa<MemSetInst>(MI) ? "memset" : "memcpy") +
          std::string(" of a non-constant length");
    return false;
  }
  int64_t N = Len->getSExtValue();
  const auto *MT = dyn_cast<MemTransferInst>(&MI);
  MemSpace Dst = spaceOfPointer(MI.getRawDest());
  MemSpace Src = MT ? spaceOfPointer(MT->getRawSource()) : MemSpace::None;
  // The back end copies (and sets) with the widest access the alignment
  // allows (a 16-byte aligned uint4 copy is one load, a float3 three).
  auto accesses = [&](MaybeAlign A) {
    int64_t W = std::min<int64_t>({16, int64_t(A.valueOrOne().value()), N});
    return W > 0 ? (N + W - 1) / W : 0;
  };
  if (Src == MemSpace::Global) {
    Out[counter::GlobalLoads] += accesses(MT->getSourceAlign());
    Out[counter::GlobalLoadBytes] += N;
  } else if (Src == MemSpace::Shared) {
    Out[counter::SharedLoadBytes] += N;
  }
  if (Dst == MemSpace::Global) {
    Out[counter::GlobalStores] += accesses(MI.getDestAlign());
    Out[counter::GlobalStoreBytes] += N;
  } else if (Dst == MemSpace::Shared) {
    Out[counter::SharedStoreBytes] += N;
  }
  return true;
}

/// Intrinsics that move no data the counts measure: markers, hints,
/// barriers and fences, thread-id and warp-vote reads, and the
/// synchronization of asynchronous copies.
static bool movesNoData(StringRef Name) {
  static const char *const Prefixes[] = {"llvm.lifetime.",
                                         "llvm.assume",
                                         "llvm.dbg.",
                                         "llvm.invariant.",
                                         "llvm.launder.invariant",
                                         "llvm.strip.invariant",
                                         "llvm.experimental.noalias.scope.decl",
                                         "llvm.prefetch",
                                         "llvm.trap",
                                         "llvm.debugtrap",
                                         "llvm.ubsantrap",
                                         "llvm.donothing",
                                         "llvm.sideeffect",
                                         "llvm.pseudoprobe",
                                         "llvm.stacksave",
                                         "llvm.stackrestore",
                                         "llvm.nvvm.barrier",
                                         "llvm.nvvm.bar.",
                                         "llvm.nvvm.membar",
                                         "llvm.nvvm.fence",
                                         "llvm.nvvm.read.ptx.sreg.",
                                         "llvm.nvvm.prefetch",
                                         "llvm.nvvm.vote.",
                                         "llvm.nvvm.match.",
                                         "llvm.nvvm.activemask",
                                         "llvm.nvvm.nanosleep",
                                         "llvm.nvvm.redux.sync.",
                                         "llvm.nvvm.elect.sync",
                                         "llvm.nvvm.mbarrier.",
                                         "llvm.nvvm.cp.async.commit.group",
                                         "llvm.nvvm.cp.async.wait.",
                                         "llvm.nvvm.cp.async.mbarrier.",
                                         "llvm.nvvm.griddepcontrol.",
                                         "llvm.nvvm.setmaxnreg.",
                                         "llvm.nvvm.exit",
                                         "llvm.nvvm.isspacep.",
                                         "llvm.nvvm.ptr.",
                                         "llvm.nvvm.shfl.",
                                         "llvm.nvvm.atomic.",
                                         "llvm.nvvm.wmma.",
                                         "llvm.nvvm.mma.",
                                         "llvm.memcpy",
                                         "llvm.memmove",
                                         "llvm.memset"};
  return llvm::any_of(Prefixes,
                      [&](const char *P) { return Name.starts_with(P); });
}

/// An intrinsic that reads or writes memory the counts would miss (a masked
/// or gathered load, an asynchronous copy): the reason, or none.
std::optional<std::string>
roofline::uncountedMemoryIntrinsic(const IntrinsicInst &II) {
  if (II.doesNotAccessMemory())
    return std::nullopt;
  StringRef Name = II.getCalledFunction()->getName();
  if (movesNoData(Name))
    return std::nullopt;
  return ("the intrinsic '" + Name +
          "' moves memory the analysis does not count")
      .str();
}

static bool classifyAlgorithmic(const Instruction &I, const DataLayout &DL,
                                OpCounts &Out, std::string &Why,
                                unsigned &Affects);

bool roofline::classifyInstruction(const Instruction &I, const DataLayout &DL,
                                   OpCounts &Out, std::string &Why,
                                   unsigned &Affects) {
  OpCounts Mine;
  bool Counted = classifyAlgorithmic(I, DL, Mine, Why, Affects);
  std::string ExecWhy, Contention;
  bool Executed = addExecutedFlops(I, Mine, ExecWhy, Contention);
  for (const auto &KV : Mine)
    Out[KV.first] += KV.second;
  if (!Counted)
    return false;
  if (!Executed) {
    Why = ExecWhy;
    Affects = AffectsExecuted;
    return false;
  }
  // Counted, but contention can add to it: reported, nothing made unknown.
  if (!Contention.empty()) {
    Why = Contention;
    Affects = 0;
    return false;
  }
  return true;
}

static bool classifyAlgorithmic(const Instruction &I, const DataLayout &DL,
                                OpCounts &Out, std::string &Why,
                                unsigned &Affects) {
  Affects = AffectsAll;
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->doesNotAccessMemory())
      Affects = AffectsRegisters;
    else if (CB->onlyReadsMemory())
      Affects = AffectsRegisters | AffectsLoads;
  }
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
    addFlops(Out, I.getType(), 1);
    return true;
  case Instruction::FDiv:
  case Instruction::FRem:
    addDivision(Out, I.getType());
    return true;
  case Instruction::Load:
  case Instruction::Store: {
    Type *T = isa<LoadInst>(I)
                  ? I.getType()
                  : cast<StoreInst>(I).getValueOperand()->getType();
    int64_t Bytes = DL.getTypeStoreSize(T).getFixedValue();
    bool IsLoad = isa<LoadInst>(I);
    switch (memorySpaceOf(I)) {
    case MemSpace::Global:
      Out[IsLoad ? counter::GlobalLoads : counter::GlobalStores] += 1;
      Out[IsLoad ? counter::GlobalLoadBytes : counter::GlobalStoreBytes] +=
          Bytes;
      break;
    case MemSpace::Shared:
      Out[IsLoad ? counter::SharedLoadBytes : counter::SharedStoreBytes] +=
          Bytes;
      break;
    default:
      break;
    }
    return true;
  }
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg: {
    Type *T = isa<AtomicRMWInst>(I)
                  ? cast<AtomicRMWInst>(I).getValOperand()->getType()
                  : cast<AtomicCmpXchgInst>(I).getNewValOperand()->getType();
    // Shared-memory atomics never reach DRAM.
    if (memorySpaceOf(I) == MemSpace::Shared) {
      Out[counter::SharedAtomics] += 1;
      return true;
    }
    Out[counter::Atomics] += 1;
    Out[counter::AtomicBytes] += DL.getTypeStoreSize(T).getFixedValue();
    return true;
  }
  case Instruction::Call: {
    const auto &CB = cast<CallBase>(I);
    if (CB.isInlineAsm()) {
      // A lowered bulk or TMA copy: its memcpys count what it moves.
      if (CB.getMetadata(BulkCopyMD))
        return true;
      // A TMA copy whose box the host code does not give (CacheHintAsm.h).
      if (auto *MD = CB.getMetadata(UnreadCopyMD)) {
        Why = ("TMA copy: " + cast<MDString>(MD->getOperand(0))->getString())
                  .str();
        Affects = AffectsLoads | AffectsStores;
        return false;
      }
      const auto *IA = cast<InlineAsm>(CB.getCalledOperand());
      return classifyPtxAsm(IA->getAsmString(),
                            IA->getConstraintString().find("~{memory}") !=
                                std::string::npos,
                            asmOperandValues(CB), Out, Why, Affects);
    }
    if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      if (auto *MI = dyn_cast<MemIntrinsic>(II))
        return classifyMemIntrinsic(*MI, Out, Why);
      if (auto Uncounted = uncountedMemoryIntrinsic(*II)) {
        Why = *Uncounted;
        Affects =
            II->onlyReadsMemory() ? AffectsLoads : AffectsLoads | AffectsStores;
        return false;
      }
      if (!classifyIntrinsic(*II, Out)) {
        Why = ("tensor-core intrinsic '" + II->getCalledFunction()->getName() +
               "' has an unrecognized shape or type")
                  .str();
        return false;
      }
      return true;
    }
    const Function *Callee = CB.getCalledFunction();
    if (!Callee) {
      Why = "indirect call: the callee's work is unknown";
      return false;
    }
    StringRef Name = Callee->getName();
    if (Name.starts_with("__nv_")) {
      classifyMathCall(CB, Out);
      return true;
    }
    if (Name == "vprintf" || Name.starts_with("__assertfail"))
      return true;
    Why = ("call to '" + Name + "' was not inlined (recursion or external)")
              .str();
    return false;
  }
  default:
    return true;
  }
}
