//===- SymbolMapper.cpp ---------------------------------------------------===//

#include "SymbolMapper.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/SimplifyQuery.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

/// Whether E >= 0 for every thread: a sum with non-negative coefficients of
/// products of thread coordinates and launch dimensions.
static bool nonNegative(const roofline::Expr &E) {
  for (const roofline::Expr::Term &T : E.terms()) {
    if (T.Coef < roofline::Rational(0))
      return false;
    for (const auto &[A, Pow] : T.Mono)
      if (A->Kind != roofline::AtomKind::Symbol ||
          (A->SymKind != roofline::SymbolKind::Thread &&
           A->SymKind != roofline::SymbolKind::Launch))
        return false;
  }
  return true;
}
using namespace roofline;

std::optional<std::pair<std::string, SymbolKind>>
roofline::specialRegisterName(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II)
    return std::nullopt;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return std::make_pair(std::string("threadIdx.x"), SymbolKind::Thread);
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    return std::make_pair(std::string("threadIdx.y"), SymbolKind::Thread);
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return std::make_pair(std::string("threadIdx.z"), SymbolKind::Thread);
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    return std::make_pair(std::string("blockIdx.x"), SymbolKind::Thread);
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    return std::make_pair(std::string("blockIdx.y"), SymbolKind::Thread);
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    return std::make_pair(std::string("blockIdx.z"), SymbolKind::Thread);
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    return std::make_pair(std::string("blockDim.x"), SymbolKind::Launch);
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    return std::make_pair(std::string("blockDim.y"), SymbolKind::Launch);
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return std::make_pair(std::string("blockDim.z"), SymbolKind::Launch);
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    return std::make_pair(std::string("gridDim.x"), SymbolKind::Launch);
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    return std::make_pair(std::string("gridDim.y"), SymbolKind::Launch);
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return std::make_pair(std::string("gridDim.z"), SymbolKind::Launch);
  default:
    return std::nullopt;
  }
}

SymbolMapper::SymbolMapper(ScalarEvolution &SE, const Function &F,
                           const std::vector<std::string> &ParamNames)
    : SE(SE), ParamNames(ParamNames), F(F) {}

void SymbolMapper::setLoopVar(const Loop *L, const std::string &Var) {
  LoopVars[L] = Var;
}

void SymbolMapper::setValueVar(const PHINode *P, const std::string &Var) {
  ValueVars[P] = Var;
}

std::string SymbolMapper::paramName(const Value *V) const {
  auto *A = dyn_cast<Argument>(V);
  if (!A)
    return "";
  unsigned No = A->getArgNo();
  if (No < ParamNames.size() && !ParamNames[No].empty())
    return ParamNames[No];
  if (A->hasName())
    return A->getName().str();
  return "arg" + std::to_string(No);
}

std::optional<Expr> SymbolMapper::fail(const std::string &Reason,
                                       const Value *V) {
  if (Why.empty()) {
    Why = Reason;
    Culprit = V;
  }
  return std::nullopt;
}

std::optional<Expr> SymbolMapper::convertValue(const Value *V) {
  return convert(SE.getSCEV(const_cast<Value *>(V)));
}

/// What convertUnknown says of a value none of its cases can express.
static const char *const Inexpressible = "value the analysis cannot express";

std::optional<Expr> SymbolMapper::convertUnknown(const Value *V) {
  if (isa<Argument>(V))
    return Expr::symbol(paramName(V), SymbolKind::Param);
  if (auto SR = specialRegisterName(V))
    return Expr::symbol(SR->first, SR->second);
  if (isLaneId(V))
    return laneIdExpr();
  if (auto *II = dyn_cast<IntrinsicInst>(V))
    return convertIntrinsic(II);
  if (auto *P = dyn_cast<PHINode>(V))
    return convertPhi(P);
  if (isa<LoadInst>(V))
    return fail("value loaded from memory (data-dependent)", V);
  if (auto *BO = dyn_cast<BinaryOperator>(V))
    return convertBinary(BO);
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return convertSelect(Sel);
  if (isa<CallBase>(V))
    return fail("result of a call", V);
  return fail(Inexpressible, V);
}

// The warp size and integer min/max; other intrinsics are calls whose
// result the analysis does not follow.
std::optional<Expr> SymbolMapper::convertIntrinsic(const IntrinsicInst *II) {
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
    return Expr(32);
  case Intrinsic::smin:
  case Intrinsic::umin:
  case Intrinsic::smax:
  case Intrinsic::umax: {
    auto A = convertValue(II->getArgOperand(0));
    auto B = convertValue(II->getArgOperand(1));
    if (!A || !B)
      return std::nullopt;
    bool Max = II->getIntrinsicID() == Intrinsic::smax ||
               II->getIntrinsicID() == Intrinsic::umax;
    return Max ? Expr::max(*A, *B) : Expr::min(*A, *B);
  }
  default:
    return fail("result of a call", II);
  }
}

// `c ? a : b` on integers compared as integers: border clamps
// (`x > 0 ? x - 1 : x`) and their kin. Unsigned predicates are read as
// signed, as guards are: indices are nonnegative.
std::optional<Expr> SymbolMapper::convertSelect(const SelectInst *Sel) {
  auto T = convertValue(Sel->getTrueValue());
  auto F = convertValue(Sel->getFalseValue());
  if (!T || !F)
    return std::nullopt;
  return convertChoice(Sel->getCondition(), *T, *F, Sel);
}

// `Cond ? T : F` for an integer comparison Cond; V is the value reported
// when it is not one.
std::optional<Expr> SymbolMapper::convertChoice(const Value *Cond,
                                                const Expr &T, const Expr &F,
                                                const Value *V) {
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return fail("value chosen by a condition that is not an integer "
                "comparison",
                V);
  auto L = convertValue(Cmp->getOperand(0));
  auto R = convertValue(Cmp->getOperand(1));
  if (!L || !R)
    return std::nullopt;
  static const std::pair<CmpInst::Predicate, CmpKind> Preds[] = {
      {CmpInst::ICMP_EQ, CmpKind::EQ},  {CmpInst::ICMP_NE, CmpKind::NE},
      {CmpInst::ICMP_SLT, CmpKind::LT}, {CmpInst::ICMP_ULT, CmpKind::LT},
      {CmpInst::ICMP_SLE, CmpKind::LE}, {CmpInst::ICMP_ULE, CmpKind::LE},
      {CmpInst::ICMP_SGT, CmpKind::GT}, {CmpInst::ICMP_UGT, CmpKind::GT},
      {CmpInst::ICMP_SGE, CmpKind::GE}, {CmpInst::ICMP_UGE, CmpKind::GE}};
  for (auto [P, K] : Preds)
    if (Cmp->getPredicate() == P)
      return Expr::select(K, *L, *R, T, F);
  return fail(Inexpressible, V);
}

// A recurrence counter's symbol, or the one value a phi merges.
std::optional<Expr> SymbolMapper::convertPhi(const PHINode *P) {
  auto It = ValueVars.find(P);
  if (It != ValueVars.end())
    return Expr::symbol(It->second, SymbolKind::Iteration);
  // A phi merging one value computed on several paths (GVN's partial
  // redundancy elimination makes these) is that value.
  if (P->getNumIncomingValues() > 0 && !Merging.count(P)) {
    Merging.insert(P);
    std::optional<Expr> Same;
    bool AllSame = true;
    for (const Value *In : P->incoming_values()) {
      auto E = convertValue(In);
      if (!E || (Same && *Same != *E)) {
        AllSame = false;
        break;
      }
      Same = E;
    }
    Merging.erase(P);
    if (AllSame && Same)
      return Same;
  }
  return fail("value of a loop-carried variable that is not an affine "
              "counter",
              P);
}

/// A & Mask for a nonnegative constant mask, as arithmetic: each run of
/// ones from bit lo up to bit hi - 1 keeps (A mod 2^hi) - (A mod 2^lo).
/// Exact for negative A too: a floor modulo by 2^k is the two's-complement
/// low k bits.
static Expr maskRuns(const Expr &A, uint64_t Mask) {
  Expr R;
  for (unsigned Lo = 0; Lo < 63;) {
    if (!((Mask >> Lo) & 1)) {
      ++Lo;
      continue;
    }
    unsigned Hi = Lo;
    while (Hi < 63 && ((Mask >> Hi) & 1))
      ++Hi;
    R = R + Expr::mod(A, Expr(int64_t(1) << Hi)) -
        Expr::mod(A, Expr(int64_t(1) << Lo));
    Lo = Hi;
  }
  return R;
}

/// The mask of a bit operation with a constant that maskRuns can take.
static std::optional<uint64_t> runMask(const ConstantInt *C) {
  if (!C || C->getValue().isNegative() || C->getValue().getActiveBits() > 62)
    return std::nullopt;
  return C->getZExtValue();
}

// Integer division and remainder, and the bit operations that are
// arithmetic on the values they see (shifts, masks, disjoint ors).
std::optional<Expr> SymbolMapper::convertBinary(const BinaryOperator *BO) {
  auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
  switch (BO->getOpcode()) {
  case Instruction::SDiv:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::URem:
    return convertDivRem(BO, C);
  case Instruction::Or: {
    // a | b where b is a multiple of 2^k and 0 <= a < 2^k is a + b. The
    // optimizer leaves such ors unmarked when known-bits gives up (tile
    // offsets merged through phis), so prove it from value ranges.
    auto A = convertValue(BO->getOperand(0));
    auto B = convertValue(BO->getOperand(1));
    if (!A || !B)
      return std::nullopt;
    if (disjointBits(*A, *B) || disjointBits(*B, *A))
      return *A + *B;
    // a | c = a + c - (a & c) for a constant c.
    if (auto M = runMask(C))
      return *A + *B - maskRuns(*A, *M);
    break;
  }
  case Instruction::Xor: {
    // a ^ c = a + c - 2 * (a & c) for a constant c (`i ^ 1`, the partner
    // of a butterfly step).
    auto M = runMask(C);
    bool Not = C && C->isMinusOne(); // ~a = -a - 1.
    if (!M && !Not)
      break;
    auto A = convertValue(BO->getOperand(0));
    if (!A)
      return std::nullopt;
    if (Not)
      return -*A - Expr(1);
    return *A + Expr(int64_t(*M)) - Expr(2) * maskRuns(*A, *M);
  }
  case Instruction::LShr:
  case Instruction::AShr: {
    if (!C || C->getZExtValue() > 62)
      break;
    auto A = convertValue(BO->getOperand(0));
    if (!A)
      return std::nullopt;
    return Expr::floorDiv(*A, Expr(int64_t(1) << C->getZExtValue()));
  }
  case Instruction::And: {
    if (C)
      return convertMask(BO, C);
    auto A = convertValue(BO->getOperand(0));
    auto B = convertValue(BO->getOperand(1));
    if (!A || !B)
      return std::nullopt;
    return Expr::bitAnd(*A, *B);
  }
  default:
    break;
  }
  return fail(Inexpressible, BO);
}

// Division and remainder, by their rounding: floor where it is known to
// be the same as C's truncation.
std::optional<Expr> SymbolMapper::convertDivRem(const BinaryOperator *BO,
                                                const ConstantInt *C) {
  auto A = convertValue(BO->getOperand(0));
  auto B = convertValue(BO->getOperand(1));
  if (!A || !B)
    return std::nullopt;
  // A signed division of a value LLVM knows is non-negative (a thread
  // index) by a positive constant rounds down: the floor form, whose
  // divisible terms come out of the atom (Expr::floorDiv).
  bool Floor =
      C && C->getValue().isStrictlyPositive() &&
      (nonNegative(*A) ||
       isKnownNonNegative(BO->getOperand(0),
                          SimplifyQuery(BO->getModule()->getDataLayout(), BO)));
  switch (BO->getOpcode()) {
  case Instruction::SDiv:
    return Floor ? Expr::floorDiv(*A, *B) : Expr::truncDiv(*A, *B);
  case Instruction::SRem:
    return Floor ? Expr::mod(*A, *B) : Expr::truncRem(*A, *B);
  case Instruction::UDiv:
    return Expr::floorDiv(*A, *B);
  default:
    return Expr::mod(*A, *B);
  }
}

// x & C where C keeps low bits: a remainder by a power of two.
std::optional<Expr> SymbolMapper::convertMask(const BinaryOperator *BO,
                                              const ConstantInt *C) {
  const APInt &Mask = C->getValue();
  unsigned Bits = Mask.getBitWidth();
  if (Mask.isMask() && Mask.countr_one() <= 62) {
    auto A = convertValue(BO->getOperand(0));
    if (!A)
      return std::nullopt;
    return Expr::mod(*A, Expr(int64_t(1) << Mask.countr_one()));
  }
  // Signed x % 2^k compared with a constant becomes
  // x & (signbit | (2^k - 1)): the low bits, minus 2^(w-1) when x < 0.
  APInt Low = Mask;
  Low.clearBit(Bits - 1);
  if (Bits <= 64 && Mask.isSignBitSet() && Low.isMask() &&
      Low.countr_one() <= 62) {
    auto A = convertValue(BO->getOperand(0));
    if (!A)
      return std::nullopt;
    Expr Half(int64_t(1) << (Bits - 1 > 62 ? 62 : Bits - 1));
    return Expr::mod(*A, Expr(int64_t(1) << Low.countr_one())) +
           Half * Expr::floorDiv(*A, Half);
  }
  // Any other nonnegative mask (x & 16, a butterfly partner's bit), or a
  // negative one that clears a few low bits (x & ~1 = x - (x & 1)).
  APInt Cleared = ~Mask;
  bool Clears = Mask.isNegative() && Cleared.getActiveBits() <= 62;
  if (auto M = runMask(C); M || Clears) {
    auto A = convertValue(BO->getOperand(0));
    if (!A)
      return std::nullopt;
    if (M)
      return maskRuns(*A, *M);
    return *A - maskRuns(*A, Cleared.getZExtValue());
  }
  return fail(Inexpressible, BO);
}

// Hardware ranges of the thread coordinates and the iteration ranges of
// loops with a constant maximum trip count; other symbols are unbounded.
std::optional<Interval> SymbolMapper::symbolRange(const std::string &Name) {
  static const std::pair<const char *, int64_t> Limits[] = {
      {"threadIdx.x", 1023}, {"threadIdx.y", 1023}, {"threadIdx.z", 63}};
  for (auto &[N, Max] : Limits)
    if (Name == N)
      return Interval{Rational(0), Rational(Max)};
  for (auto &KV : LoopVars) {
    if (KV.second != Name)
      continue;
    unsigned TC = SE.getSmallConstantMaxTripCount(const_cast<Loop *>(KV.first));
    if (TC == 0)
      return std::nullopt;
    return Interval{Rational(0), Rational(int64_t(TC) - 1)};
  }
  return std::nullopt;
}

// True if High is a multiple of some 2^k that bounds Low from above (and
// Low is non-negative): their bits cannot overlap.
bool SymbolMapper::disjointBits(const Expr &Low, const Expr &High) {
  if (High.isZero())
    return true;
  int64_t Pow = int64_t(1) << 40;
  for (const Expr::Term &T : High.terms()) {
    if (!T.Coef.isInteger() || T.Mono.empty())
      return false;
    auto C = T.Coef.toInt64();
    if (!C || *C == 0)
      return false;
    int64_t Abs = *C < 0 ? -*C : *C;
    Pow = std::min(Pow, Abs & -Abs);
  }
  std::set<std::string> Syms;
  Low.collectSymbols(Syms);
  IntervalEnv Env;
  for (const std::string &S : Syms) {
    auto R = symbolRange(S);
    if (!R)
      return false;
    Env[S] = *R;
  }
  auto B = Low.bound(Env);
  return B && Rational(0) <= B->Lo && B->Hi < Rational(Pow);
}

bool SymbolMapper::isLaneId(const Value *V) {
  if (auto *II = dyn_cast<IntrinsicInst>(V))
    return II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_laneid;
  auto *CB = dyn_cast<CallBase>(V);
  if (!CB || !CB->isInlineAsm())
    return false;
  StringRef Asm = cast<InlineAsm>(CB->getCalledOperand())->getAsmString();
  return Asm.trim().starts_with("mov.u32") && Asm.contains("%laneid");
}

// The lane is the linear thread index within the block, modulo the warp.
Expr SymbolMapper::laneIdExpr() {
  auto S = [](const char *N, SymbolKind K) { return Expr::symbol(N, K); };
  Expr Linear = S("threadIdx.x", SymbolKind::Thread) +
                S("blockDim.x", SymbolKind::Launch) *
                    (S("threadIdx.y", SymbolKind::Thread) +
                     S("blockDim.y", SymbolKind::Launch) *
                         S("threadIdx.z", SymbolKind::Thread));
  return Expr::mod(Linear, Expr(32));
}

static Expr binomial(const Expr &I, unsigned K) {
  // C(I, K) for the K-th operand of an add recurrence.
  Expr R(1);
  for (unsigned J = 0; J < K; ++J)
    R = R * (I - Expr(int64_t(J)));
  int64_t Fact = 1;
  for (unsigned J = 2; J <= K; ++J)
    Fact *= J;
  return R * Expr::constant(Rational::fraction(1, Fact));
}

std::optional<Expr> SymbolMapper::convert(const SCEV *S) {
  // Each top-level conversion reports its own failure.
  if (Depth == 0) {
    Why.clear();
    Culprit = nullptr;
  }
  // Arithmetic in a narrow type wraps: j % 4 becomes an i2 recurrence.
  auto *NAry = dyn_cast<SCEVNAryExpr>(S);
  bool MayWrap = NAry && !NAry->hasNoSignedWrap() && !NAry->hasNoUnsignedWrap();
  if (S->getType()->isIntegerTy() && MayWrap) {
    unsigned Bits = S->getType()->getIntegerBitWidth();
    if (Bits < 32) {
      auto E = convertWide(S);
      if (!E)
        return E;
      return Expr::mod(*E, Expr(int64_t(1) << Bits));
    }
  }
  return convertWide(S);
}

std::optional<Expr> SymbolMapper::convertWide(const SCEV *S) {
  if (++Depth > 200) {
    --Depth;
    return fail("expression too deep", nullptr);
  }
  struct Guard {
    unsigned &D;
    ~Guard() { --D; }
  } G{Depth};

  if (isa<SCEVCouldNotCompute>(S))
    return fail("ScalarEvolution could not compute the value", nullptr);
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    const APInt &V = C->getAPInt();
    if (V.getBitWidth() > 64)
      return fail("constant wider than 64 bits", nullptr);
    return Expr(V.getSExtValue());
  }
  if (auto *U = dyn_cast<SCEVUnknown>(S))
    return convertUnknown(U->getValue());
  if (auto *Tr = dyn_cast<SCEVTruncateExpr>(S)) {
    // Narrow truncations are masks (x & 31 becomes trunc to i5); wide ones
    // are index casts, assumed not to wrap.
    unsigned Bits = Tr->getType()->getScalarSizeInBits();
    auto E = convert(Tr->getOperand());
    if (!E || Bits >= 32)
      return E;
    return Expr::mod(*E, Expr(int64_t(1) << Bits));
  }
  if (auto *Cast = dyn_cast<SCEVCastExpr>(S)) {
    // `x + (x < n - 1)`: the optimizer's form of a border select is a
    // widened comparison, 1 (or -1, sign-extended) where it holds.
    const SCEV *Op = Cast->getOperand();
    bool Negate = isa<SCEVSignExtendExpr>(S) && Op->getType()->isIntegerTy(1);
    if (auto *U = dyn_cast<SCEVUnknown>(Op))
      if (isa<ICmpInst>(U->getValue()) && isa<SCEVIntegralCastExpr>(S))
        return convertChoice(U->getValue(), Expr(Negate ? -1 : 1), Expr(0),
                             U->getValue());
    auto E = convert(Op); // Index math is assumed not to wrap.
    if (E && Negate)
      return -*E;
    return E;
  }
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    Expr R;
    for (const SCEV *Op : Add->operands()) {
      auto E = convert(Op);
      if (!E)
        return std::nullopt;
      R = R + *E;
    }
    return R;
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    Expr R(1);
    for (const SCEV *Op : Mul->operands()) {
      auto E = convert(Op);
      if (!E)
        return std::nullopt;
      R = R * *E;
    }
    return R;
  }
  if (auto *Div = dyn_cast<SCEVUDivExpr>(S)) {
    auto A = convert(Div->getLHS());
    auto B = convert(Div->getRHS());
    if (!A || !B)
      return std::nullopt;
    return Expr::floorDiv(*A, *B);
  }
  if (auto *MM = dyn_cast<SCEVMinMaxExpr>(S)) {
    bool IsMax = isa<SCEVSMaxExpr>(MM) || isa<SCEVUMaxExpr>(MM);
    std::optional<Expr> R;
    for (const SCEV *Op : MM->operands()) {
      auto E = convert(Op);
      if (!E)
        return std::nullopt;
      R = R ? (IsMax ? Expr::max(*R, *E) : Expr::min(*R, *E)) : *E;
    }
    return R;
  }
  if (auto *SM = dyn_cast<SCEVSequentialMinMaxExpr>(S)) {
    std::optional<Expr> R;
    for (const SCEV *Op : SM->operands()) {
      auto E = convert(Op);
      if (!E)
        return std::nullopt;
      R = R ? Expr::min(*R, *E) : *E;
    }
    return R;
  }
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    auto It = LoopVars.find(AR->getLoop());
    if (It == LoopVars.end())
      return fail("recurrence of a loop outside the kernel model", nullptr);
    Expr I = Expr::symbol(It->second, SymbolKind::Iteration);
    Expr R;
    for (unsigned K = 0; K < AR->getNumOperands(); ++K) {
      auto E = convert(AR->getOperand(K));
      if (!E)
        return std::nullopt;
      R = R + *E * binomial(I, K);
    }
    return R;
  }
  return fail("expression kind not supported", nullptr);
}
