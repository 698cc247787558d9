//===- KernelModel.cpp ----------------------------------------------------===//

#include "KernelModel.h"
#include "CacheHintAsm.h"
#include "Limits.h"
#include "SymbolMapper.h"
#include "Toolchain.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <functional>

using namespace llvm;
using namespace roofline;

//===----------------------------------------------------------------------===//
// Conditions
//===----------------------------------------------------------------------===//

namespace {
CmpKind invertCmp(CmpKind K);
} // namespace

CondRef Cond::makeTrue() {
  static CondRef T = std::make_shared<Cond>();
  return T;
}

CondRef Cond::makeFalse() {
  static CondRef F = [] {
    auto C = std::make_shared<Cond>();
    C->K = False;
    return C;
  }();
  return F;
}

CondRef Cond::cmp(CmpKind P, const Expr &L, const Expr &R) {
  auto C = std::make_shared<Cond>();
  C->K = Cmp;
  C->Pred = P;
  C->Lhs = L;
  C->Rhs = R;
  return C;
}

CondRef Cond::conj(CondRef A, CondRef B) {
  if (A->K == True || B->K == False)
    return B;
  if (B->K == True || A->K == False)
    return A;
  auto C = std::make_shared<Cond>();
  C->K = And;
  C->Ops = {A, B};
  return C;
}

CondRef Cond::disj(CondRef A, CondRef B) {
  if (A->K == True || B->K == False)
    return A;
  if (B->K == True || A->K == False)
    return B;
  auto C = std::make_shared<Cond>();
  C->K = Or;
  C->Ops = {A, B};
  return C;
}

CondRef Cond::negate(CondRef A) {
  if (A->K == True)
    return makeFalse();
  if (A->K == False)
    return makeTrue();
  if (A->K == Not)
    return A->Ops[0];
  if (A->K == Unknown)
    return A;
  auto C = std::make_shared<Cond>();
  C->K = Not;
  C->Ops = {A};
  return C;
}

CondRef Cond::unknown(UnknownReason R) {
  auto C = std::make_shared<Cond>();
  C->K = Unknown;
  C->Why = std::move(R);
  return C;
}

// A condition is a DAG: the conditions of the blocks after a join share
// their predecessors' conditions, and a row of n branches in a loop with
// several exits gives paths of 2^n literals. The recursive operations below
// see it as a tree, so their work is exponential in such kernels. Each
// visit of a node counts a step, and past the kernel's limits they stop:
// evaluate says Unknown, the rebuilding ones give an unknown condition with
// the limit's reason, so the walk that asked fails with it. The steps are
// counted per outermost call: a small condition is always finished, even
// past the limit, so what was counted before the limit (block 0's threads
// on a path, say) keeps its exact value.
static thread_local unsigned CondDepth = 0;
static thread_local uint64_t CondSteps = 0;
constexpr uint64_t SmallCondSteps = 4096;

namespace {
/// One visit of a condition node: the outermost resets the step count.
struct CondVisit {
  CondVisit() {
    if (CondDepth++ == 0)
      CondSteps = 0;
  }
  ~CondVisit() { --CondDepth; }
  CondVisit(const CondVisit &) = delete;
  CondVisit &operator=(const CondVisit &) = delete;
};
} // namespace

static bool condLimitReached() {
  if (++CondSteps < SmallCondSteps)
    return false;
  return KernelLimits::reached() ||
         ((CondSteps & 1023) == 0 && KernelLimits::expired());
}

static CondRef limitCond() {
  UnknownReason R;
  R.Reason = KernelLimits::reason();
  return Cond::unknown(std::move(R));
}

static Truth notT(Truth T) {
  return T == Truth::True    ? Truth::False
         : T == Truth::False ? Truth::True
                             : Truth::Unknown;
}

Truth Cond::evaluate(const IntervalEnv &Env) const {
  CondVisit Visit;
  if (!Ops.empty() && condLimitReached())
    return Truth::Unknown;
  switch (K) {
  case True:
    return Truth::True;
  case False:
    return Truth::False;
  case Unknown:
    return Truth::Unknown;
  case Not:
    return notT(Ops[0]->evaluate(Env));
  case And: {
    Truth A = Ops[0]->evaluate(Env);
    if (A == Truth::False)
      return A;
    Truth B = Ops[1]->evaluate(Env);
    if (B == Truth::False)
      return B;
    return A == Truth::True && B == Truth::True ? Truth::True : Truth::Unknown;
  }
  case Or: {
    Truth A = Ops[0]->evaluate(Env);
    if (A == Truth::True)
      return A;
    Truth B = Ops[1]->evaluate(Env);
    if (B == Truth::True)
      return B;
    return A == Truth::False && B == Truth::False ? Truth::False
                                                  : Truth::Unknown;
  }
  case Cmp: {
    auto D = (Lhs - Rhs).bound(Env);
    if (!D)
      return Truth::Unknown;
    Rational Z(0);
    switch (Pred) {
    case CmpKind::LT:
      return D->Hi < Z    ? Truth::True
             : D->Lo >= Z ? Truth::False
                          : Truth::Unknown;
    case CmpKind::LE:
      return D->Hi <= Z  ? Truth::True
             : D->Lo > Z ? Truth::False
                         : Truth::Unknown;
    case CmpKind::GT:
      return D->Lo > Z    ? Truth::True
             : D->Hi <= Z ? Truth::False
                          : Truth::Unknown;
    case CmpKind::GE:
      return D->Lo >= Z  ? Truth::True
             : D->Hi < Z ? Truth::False
                         : Truth::Unknown;
    case CmpKind::EQ:
      if (D->isPoint())
        return D->Lo == Z ? Truth::True : Truth::False;
      return (D->Hi < Z || D->Lo > Z) ? Truth::False : Truth::Unknown;
    case CmpKind::NE:
      if (D->isPoint())
        return D->Lo == Z ? Truth::False : Truth::True;
      return (D->Hi < Z || D->Lo > Z) ? Truth::True : Truth::Unknown;
    }
    return Truth::Unknown;
  }
  }
  return Truth::Unknown;
}

CondRef Cond::substitute(const std::map<std::string, Expr> &Map) const {
  CondVisit Visit;
  if (!Ops.empty() && condLimitReached())
    return limitCond();
  switch (K) {
  case True:
  case False:
  case Unknown:
    return std::make_shared<Cond>(*this);
  case Cmp:
    return cmp(Pred, Lhs.substitute(Map), Rhs.substitute(Map));
  case Not:
    return negate(Ops[0]->substitute(Map));
  case And:
    return conj(Ops[0]->substitute(Map), Ops[1]->substitute(Map));
  case Or:
    return disj(Ops[0]->substitute(Map), Ops[1]->substitute(Map));
  }
  return makeTrue();
}

bool Cond::mentions(const std::string &Var) const {
  // Past the limit any answer will do: the walks that use it fail.
  CondVisit Visit;
  if (!Ops.empty() && condLimitReached())
    return true;
  if (K == Cmp)
    return Lhs.mentions(Var) || Rhs.mentions(Var);
  for (const CondRef &O : Ops)
    if (O->mentions(Var))
      return true;
  return false;
}

CondRef Cond::mapLiterals(const std::function<CondRef(const Cond &)> &Map,
                          bool Negated) const {
  CondVisit Visit;
  if (!Ops.empty() && condLimitReached())
    return limitCond();
  switch (K) {
  case True:
  case False:
    return (K == True) != Negated ? makeTrue() : makeFalse();
  case Unknown:
    return Map(*this);
  case Cmp:
    return Map(
        *(Negated ? cmp(invertCmp(Pred), Lhs, Rhs) : cmp(Pred, Lhs, Rhs)));
  case Not:
    return Ops[0]->mapLiterals(Map, !Negated);
  case And:
  case Or: {
    CondRef A = Ops[0]->mapLiterals(Map, Negated);
    CondRef B = Ops[1]->mapLiterals(Map, Negated);
    // De Morgan: a negated conjunction is a disjunction of negations.
    return (K == And) != Negated ? conj(A, B) : disj(A, B);
  }
  }
  return makeTrue();
}

CondRef
Cond::assumePassing(const std::function<bool(const Cond &)> &Pass) const {
  return mapLiterals([&](const Cond &L) {
    return Pass(L) ? makeTrue() : std::make_shared<Cond>(L);
  });
}

bool Cond::mentionsThread() const {
  CondVisit Visit;
  if (!Ops.empty() && condLimitReached())
    return true;
  if (K == Cmp)
    return Lhs.mentionsKind(SymbolKind::Thread) ||
           Rhs.mentionsKind(SymbolKind::Thread);
  for (const CondRef &O : Ops)
    if (O->mentionsThread())
      return true;
  return false;
}

bool Cond::mentionsAny(const std::set<std::string> &Vars) const {
  for (const std::string &V : Vars)
    if (mentions(V))
      return true;
  return false;
}

const UnknownReason *Cond::firstUnknown() const {
  if (K == Unknown)
    return &Why;
  CondVisit Visit;
  if (!Ops.empty() && condLimitReached()) {
    static thread_local UnknownReason Limit;
    Limit.Reason = KernelLimits::reason();
    return &Limit;
  }
  for (const CondRef &O : Ops)
    if (const UnknownReason *R = O->firstUnknown())
      return R;
  return nullptr;
}

std::string Cond::str() const {
  static const char *Ops2[] = {"<", "<=", ">", ">=", "==", "!="};
  CondVisit Visit;
  if (!Ops.empty() && condLimitReached())
    return "(not printed: analysis limit reached)";
  switch (K) {
  case True:
    return "true";
  case False:
    return "false";
  case Unknown:
    return "unknown";
  case Cmp:
    return Lhs.str() + " " + Ops2[int(Pred)] + " " + Rhs.str();
  case Not:
    return "!(" + Ops[0]->str() + ")";
  case And:
  case Or: {
    // a && b && c: parentheses only where an || sits inside an &&.
    auto Part = [&](const CondRef &C) {
      bool Wrap = C->K == Or && K == And;
      return Wrap ? "(" + C->str() + ")" : C->str();
    };
    return Part(Ops[0]) + (K == And ? " && " : " || ") + Part(Ops[1]);
  }
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Model construction
//===----------------------------------------------------------------------===//

namespace {

/// The source location of I: the innermost location in user code, walking
/// out through inlined calls from CUDA and clang headers.
const DILocation *userLocation(const Instruction *I) {
  if (!I)
    return nullptr;
  const DILocation *L = I->getDebugLoc().get();
  for (const DILocation *Cur = L; Cur; Cur = Cur->getInlinedAt()) {
    SmallString<256> Path(Cur->getDirectory());
    sys::path::append(Path, Cur->getFilename());
    if (Cur->getLine() != 0 && !isToolchainFile(Path) &&
        !isToolchainFile(Cur->getFilename()))
      return Cur;
  }
  return L;
}

void locOf(const Instruction *I, unsigned &Line, unsigned &Col,
           std::string *File = nullptr) {
  const DILocation *L = userLocation(I);
  if (!L || L->getLine() == 0)
    return;
  Line = L->getLine();
  Col = L->getColumn();
  if (File) {
    SmallString<256> Path(L->getFilename());
    if (!sys::path::is_absolute(Path) && !L->getDirectory().empty()) {
      Path = L->getDirectory();
      sys::path::append(Path, L->getFilename());
    }
    // Spelled as the AST's locations are (toSourceLoc): a pre-included
    // "./pre.cuh" is the same file as the kernel declared in it.
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    *File = Path.str().str();
  }
}

void locOfBlock(const BasicBlock *BB, unsigned &Line, unsigned &Col,
                std::string &File) {
  for (const Instruction &I : *BB)
    if (I.getDebugLoc() && I.getDebugLoc().getLine() != 0) {
      locOf(&I, Line, Col, &File);
      return;
    }
}

CmpKind toCmp(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULT:
    return CmpKind::LT;
  case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULE:
    return CmpKind::LE;
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_UGT:
    return CmpKind::GT;
  case CmpInst::ICMP_SGE:
  case CmpInst::ICMP_UGE:
    return CmpKind::GE;
  case CmpInst::ICMP_EQ:
    return CmpKind::EQ;
  default:
    return CmpKind::NE;
  }
}

CmpKind swapCmp(CmpKind K) {
  switch (K) {
  case CmpKind::LT:
    return CmpKind::GT;
  case CmpKind::LE:
    return CmpKind::GE;
  case CmpKind::GT:
    return CmpKind::LT;
  case CmpKind::GE:
    return CmpKind::LE;
  default:
    return K;
  }
}

CmpKind invertCmp(CmpKind K) {
  switch (K) {
  case CmpKind::LT:
    return CmpKind::GE;
  case CmpKind::LE:
    return CmpKind::GT;
  case CmpKind::GT:
    return CmpKind::LE;
  case CmpKind::GE:
    return CmpKind::LT;
  case CmpKind::EQ:
    return CmpKind::NE;
  case CmpKind::NE:
    return CmpKind::EQ;
  }
  return K;
}

class ModelBuilder {
public:
  ModelBuilder(Function &F, const KernelDecl *Decl)
      : Decl(Decl), F(F), DT(F), PDT(F), LI(DT), TLI(TLII, &F), AC(F),
        SE(F, TLI, AC, DT, LI), Mapper(SE, F, paramNames(F, Decl)) {
    M.MangledName = F.getName().str();
    M.ParamNames = paramNames(F, Decl);
  }

  KernelModel build();

private:
  const KernelDecl *Decl;
  Function &F;
  DominatorTree DT;
  PostDominatorTree PDT;
  LoopInfo LI;
  TargetLibraryInfoImpl TLII{Triple(F.getParent()->getTargetTriple())};
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  ScalarEvolution SE;
  SymbolMapper Mapper;
  KernelModel M;
  DenseMap<const Loop *, int> LoopIndex;
  // Condition of a node (block or subloop header) relative to its region.
  DenseMap<const BasicBlock *, CondRef> NodeCond;

  static std::vector<std::string> paramNames(Function &F,
                                             const KernelDecl *Decl) {
    std::vector<std::string> Names;
    for (Argument &A : F.args()) {
      unsigned No = A.getArgNo();
      if (Decl && No < Decl->ParamNames.size() && !Decl->ParamNames[No].empty())
        Names.push_back(Decl->ParamNames[No]);
      else if (A.hasName())
        Names.push_back(A.getName().str());
      else
        Names.push_back("arg" + std::to_string(No));
    }
    return Names;
  }

  /// The kernel pointer parameter IC compares with null (== or !=), if
  /// that is what it does. Pointers loaded from memory or compared with
  /// each other are not parameters' null tests.
  std::optional<std::string> nullTestedParam(const ICmpInst *IC) const {
    if (!IC->isEquality())
      return std::nullopt;
    const Value *A = IC->getOperand(0)->stripPointerCasts();
    const Value *B = IC->getOperand(1)->stripPointerCasts();
    if (isa<ConstantPointerNull>(A))
      std::swap(A, B);
    if (!isa<ConstantPointerNull>(B) || !isa<Argument>(A) ||
        cast<Argument>(A)->getParent() != &F)
      return std::nullopt;
    std::string Name = Mapper.paramName(A);
    if (Name.empty())
      return std::nullopt;
    return Name;
  }

  UnknownReason reasonAt(const std::string &Why, const Value *V,
                         const Instruction *Fallback) {
    UnknownReason R;
    R.Reason = Why;
    locOf(dyn_cast_or_null<Instruction>(V), R.Loc.Line, R.Loc.Column,
          &R.Loc.File);
    if (R.Loc.Line == 0)
      locOf(Fallback, R.Loc.Line, R.Loc.Column, &R.Loc.File);
    return R;
  }

  void addLoops(Loop *L, int Parent);
  void analyzeTripCount(Loop *L, LoopInfoModel &LM);
  void nameTemplateTripCount(LoopInfoModel &LM);
  void simplifyTileTripCount(LoopInfoModel &LM, const CondRef &Guard);
  bool tryStrideIdiom(Loop *L, LoopInfoModel &LM);
  bool tryRecurrence(Loop *L, LoopInfoModel &LM);
  CondRef condOfValue(Value *V, const Instruction *At, unsigned Depth = 0);
  CondRef edgeCond(BasicBlock *From, BasicBlock *To);
  void computeRegionConds(Loop *Region);
  const BasicBlock *nodeOf(const BasicBlock *BB, Loop *Region);
  /// Each node's condition relative to its region, the function's
  /// (Top) and every loop's: what computeRegionConds leaves in NodeCond.
  struct RegionConds {
    DenseMap<const BasicBlock *, CondRef> Top;
    DenseMap<const Loop *, DenseMap<const BasicBlock *, CondRef>> PerLoop;
    /// Node's condition in Region (null: the function), false if none.
    CondRef in(const BasicBlock *Node, Loop *Region) {
      auto &Map = Region ? PerLoop[Region] : Top;
      auto It = Map.find(Node);
      return It == Map.end() ? Cond::makeFalse() : It->second;
    }
  };
  /// (store, its pointer) of every global store.
  using StoreList = std::vector<std::pair<const Instruction *, const Value *>>;

  void buildBlocks();
  /// The conditions of every region, the function's first.
  RegionConds regionConds();
  /// The global stores, to spot loads of addresses stored later: plain
  /// stores, WMMA fragment stores, and copies into global memory (a 16-byte
  /// pack written back through memcpy, which SROA leaves when a struct is
  /// copied out whole).
  StoreList globalStores();
  /// Whether Load reads Ptr before a store to the same address.
  bool readBeforeWrite(const Instruction &Load, const Value *Ptr,
                       const StoreList &Stores);
  /// B's loop nest and the guards within and around it.
  void addNest(BasicBlock &BB, RegionConds &Conds, BlockModel &B);
  /// What I counts and accesses, into B.
  void addInstruction(Instruction &I, const StoreList &Stores, BlockModel &B);
  /// The global and shared ends of a memcpy/memmove.
  void addCopyAccesses(const MemIntrinsic &MI, BlockModel &B);
  /// An unknown for a kernel whose body is a bare return.
  void nameEmptyBody();
  /// A load, store or atomic of Space.
  AccessModel memoryAccess(Instruction &I, MemSpace Space,
                           const StoreList &Stores);
  AccessModel fragmentModel(const FragmentAccess &F, const Instruction &I);
  std::optional<std::pair<std::string, std::optional<Expr>>>
  baseAndOffset(const Value *Ptr, unsigned Depth = 0);
};

void ModelBuilder::addLoops(Loop *L, int Parent) {
  LoopInfoModel LM;
  LM.Id = M.Loops.size();
  LM.Parent = Parent;
  LM.Var = "it" + std::to_string(LM.Id);
  locOfBlock(L->getHeader(), LM.Loc.Line, LM.Loc.Column, LM.Loc.File);
  if (BasicBlock *Latch = L->getLoopLatch())
    locOf(Latch->getTerminator(), LM.Loc.Line, LM.Loc.Column, &LM.Loc.File);
  int Idx = M.Loops.size();
  LoopIndex[L] = Idx;
  M.Loops.push_back(LM);
  Mapper.setLoopVar(L, M.Loops[Idx].Var);
  for (Loop *Sub : *L)
    addLoops(Sub, Idx);
}

// A constant trip count equal to the one integer template argument used on
// the loop's condition line (for (k = 0; k < ITEMS; ++k)) prints as its name.
void ModelBuilder::nameTemplateTripCount(LoopInfoModel &LM) {
  auto C = LM.TripCount->asConstant();
  if (!Decl || !C || !C->isInteger())
    return;
  std::string Name;
  for (const KernelDecl::TemplateUse &U : Decl->TemplateUses) {
    if (U.Line != LM.Loc.Line || Rational(U.Value) != *C)
      continue;
    if (!Name.empty() && Name != U.Name)
      return; // Two parameters with this value: ambiguous.
    Name = U.Name;
  }
  if (!Name.empty())
    LM.TripCount = Expr::symbol(Name, SymbolKind::Param);
}

// True if Guard, a conjunction, has a comparison implying E >= 0.
static bool guardImpliesNonNegative(const Cond &Guard, const Expr &E) {
  if (Guard.K == Cond::And) {
    for (const CondRef &O : Guard.Ops)
      if (guardImpliesNonNegative(*O, E))
        return true;
    return false;
  }
  if (Guard.K != Cond::Cmp)
    return false;
  // Every comparison as D >= 0 over integers.
  std::optional<Expr> D;
  switch (Guard.Pred) {
  case CmpKind::GT:
    D = Guard.Lhs - Guard.Rhs - Expr(1);
    break;
  case CmpKind::GE:
    D = Guard.Lhs - Guard.Rhs;
    break;
  case CmpKind::LT:
    D = Guard.Rhs - Guard.Lhs - Expr(1);
    break;
  case CmpKind::LE:
    D = Guard.Rhs - Guard.Lhs;
    break;
  default:
    return false;
  }
  auto Gap = (E - *D).asConstant();
  return Gap && Rational(0) <= *Gap;
}

// ScalarEvolution counts a tile loop (for (k0 = 0; k0 < K; k0 += BK)) as
// 1 + max((K - 1)/BK, 0) taken under the entry guard K > 0. Under that
// guard the count is the familiar ceil(K / BK) = (K + BK - 1)/BK, and the
// step prints as the template parameter that set it.
void ModelBuilder::simplifyTileTripCount(LoopInfoModel &LM,
                                         const CondRef &Guard) {
  if (!LM.TripCount)
    return;
  // The single atom of E when E is exactly that atom.
  auto soleAtom = [](const Expr &E) -> const Atom * {
    const auto &Ts = E.terms();
    if (Ts.size() != 1 || Ts[0].Coef != Rational(1) || Ts[0].Mono.size() != 1 ||
        Ts[0].Mono[0].second != 1)
      return nullptr;
    return Ts[0].Mono[0].first.get();
  };
  const Atom *Top = soleAtom(*LM.TripCount - Expr(1));
  if (!Top)
    return;
  // 1 + Y/S is (Y + S)/S for every Y; 1 + max(Y/S, 0) only where Y >= 0.
  const Atom *Div = Top;
  bool NeedsGuard = false;
  if (Top->Kind == AtomKind::Max) {
    Div = nullptr;
    NeedsGuard = true;
    for (int I = 0; I < 2; ++I)
      if (Top->Ops[I].isZero())
        Div = soleAtom(Top->Ops[1 - I]);
  }
  if (!Div || Div->Kind != AtomKind::FloorDiv)
    return;
  auto Step = Div->Ops[1].asConstant();
  if (!Step || !Step->isInteger() || *Step <= Rational(0) ||
      (NeedsGuard && !guardImpliesNonNegative(*Guard, Div->Ops[0])))
    return;
  Expr S = Expr::constant(*Step);
  if (Decl) {
    std::string Name;
    bool Ambiguous = false;
    for (const KernelDecl::TemplateUse &U : Decl->TemplateUses) {
      if (U.Line != LM.Loc.Line || Rational(U.Value) != *Step)
        continue;
      Ambiguous |= !Name.empty() && Name != U.Name;
      Name = U.Name;
    }
    if (!Name.empty() && !Ambiguous)
      S = Expr::symbol(Name, SymbolKind::Param);
  }
  LM.TripCount = Expr::floorDiv(Div->Ops[0] + S, S);
}

void ModelBuilder::analyzeTripCount(Loop *L, LoopInfoModel &LM) {
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (!isa<SCEVCouldNotCompute>(BTC)) {
    if (auto E = Mapper.convert(BTC)) {
      LM.TripCount = *E + Expr(1);
      nameTemplateTripCount(LM);
      // A geometric counter (s = 128; s >>= 1) still needs its values for
      // guards such as tid < s.
      tryRecurrence(L, LM);
      return;
    }
  }
  if (tryStrideIdiom(L, LM) || tryRecurrence(L, LM))
    return;
  std::string Why = "trip count not computable";
  if (!Mapper.failure().empty())
    Why += ": " + Mapper.failure();
  LM.Unknown = reasonAt(Why, Mapper.culprit(),
                        L->getLoopLatch() ? L->getLoopLatch()->getTerminator()
                                          : L->getHeader()->getTerminator());
  if (LM.Unknown.Loc.Line == 0) {
    LM.Unknown.Loc = LM.Loc;
  }
}

// for (i = start; i < n; i += stride) with a loop-invariant but non-constant
// stride (blockDim.x * gridDim.x): ScalarEvolution describes i as an add
// recurrence but gives no trip count because the mixed-signedness add may
// wrap. The count is 1 + max(0, ceil((n - x0) / stride)) where x0 is the
// first value the latch compares.
bool ModelBuilder::tryStrideIdiom(Loop *L, LoopInfoModel &LM) {
  // The single exit test sits in the latch (rotated loops) or the header;
  // either way the count of tests is 1 + the number of passing ones.
  BasicBlock *Exiting = L->getExitingBlock();
  if (!Exiting || (Exiting != L->getLoopLatch() && Exiting != L->getHeader()))
    return false;
  auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return false;
  CmpKind Pred = toCmp(Cmp->getPredicate());
  if (!L->contains(Br->getSuccessor(0)))
    Pred = invertCmp(Pred);
  const SCEV *A = SE.getSCEV(Cmp->getOperand(0));
  const SCEV *B = SE.getSCEV(Cmp->getOperand(1));
  auto *AR = dyn_cast<SCEVAddRecExpr>(A);
  if (!AR || AR->getLoop() != L) {
    std::swap(A, B);
    Pred = swapCmp(Pred);
    AR = dyn_cast<SCEVAddRecExpr>(A);
  }
  if (!AR || AR->getLoop() != L || !AR->isAffine() || !SE.isLoopInvariant(B, L))
    return false;
  auto X0 = Mapper.convert(AR->getStart());
  auto Step = Mapper.convert(AR->getStepRecurrence(SE));
  auto Bound = Mapper.convert(B);
  if (!X0 || !Step || !Bound)
    return false;
  auto StepC = Step->asConstant();
  bool Down = StepC && *StepC < Rational(0);
  Expr Zero(0), One(1);
  switch (Pred) {
  case CmpKind::LT:
  case CmpKind::LE: {
    if (Down)
      return false;
    Expr Bnd = Pred == CmpKind::LE ? *Bound + One : *Bound;
    LM.TripCount = One + Expr::max(Zero, Expr::ceilDiv(Bnd - *X0, *Step));
    return true;
  }
  case CmpKind::GT:
  case CmpKind::GE: {
    if (!Down)
      return false;
    Expr Bnd = Pred == CmpKind::GE ? *Bound - One : *Bound;
    LM.TripCount = One + Expr::max(Zero, Expr::ceilDiv(*X0 - Bnd, -*Step));
    return true;
  }
  case CmpKind::NE:
    if (!StepC || (*StepC != Rational(1) && *StepC != Rational(-1)))
      return false;
    LM.TripCount = One + (*StepC == Rational(1) ? *Bound - *X0 : *X0 - *Bound);
    return true;
  default:
    return false;
  }
}

// for (s = blockDim.x / 2; s > 32; s >>= 1): geometric counters are
// simulated once the start and bound have concrete values.
bool ModelBuilder::tryRecurrence(Loop *L, LoopInfoModel &LM) {
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Pre = L->getLoopPredecessor();
  if (!Latch || !Pre || L->getExitingBlock() != Latch)
    return false;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return false;
  for (PHINode &P : L->getHeader()->phis()) {
    if (!P.getType()->isIntegerTy())
      continue;
    auto *Upd = dyn_cast<BinaryOperator>(P.getIncomingValueForBlock(Latch));
    if (!Upd || Upd->getOperand(0) != &P)
      continue;
    auto *C = dyn_cast<ConstantInt>(Upd->getOperand(1));
    if (!C || C->isNegative() || C->getZExtValue() > 62)
      continue;
    Recurrence R;
    R.Amount = C->getSExtValue();
    switch (Upd->getOpcode()) {
    case Instruction::LShr:
    case Instruction::AShr:
      R.Operation = Recurrence::Shr;
      break;
    case Instruction::Shl:
      R.Operation = Recurrence::Shl;
      break;
    case Instruction::SDiv:
    case Instruction::UDiv:
      R.Operation = Recurrence::Div;
      break;
    case Instruction::Mul:
      R.Operation = Recurrence::Mul;
      break;
    default:
      continue;
    }
    if ((R.Operation == Recurrence::Div || R.Operation == Recurrence::Mul) &&
        R.Amount < 2)
      continue;
    Value *Other;
    CmpKind Pred = toCmp(Cmp->getPredicate());
    if (Cmp->getOperand(0) == &P || Cmp->getOperand(0) == Upd) {
      R.TestsNext = Cmp->getOperand(0) == Upd;
      Other = Cmp->getOperand(1);
    } else if (Cmp->getOperand(1) == &P || Cmp->getOperand(1) == Upd) {
      R.TestsNext = Cmp->getOperand(1) == Upd;
      Other = Cmp->getOperand(0);
      Pred = swapCmp(Pred);
    } else {
      continue;
    }
    if (!L->contains(Br->getSuccessor(0)))
      Pred = invertCmp(Pred);
    R.ContinuePred = Pred;
    if (!SE.isLoopInvariant(SE.getSCEV(Other), L))
      continue;
    auto Start = Mapper.convertValue(P.getIncomingValueForBlock(Pre));
    auto Bound = Mapper.convertValue(Other);
    if (!Start || !Bound)
      continue;
    R.Start = *Start;
    R.Bound = *Bound;
    LM.Rec = R;
    Mapper.setValueVar(&P, LM.Var);
    return true;
  }
  return false;
}

CondRef ModelBuilder::condOfValue(Value *V, const Instruction *At,
                                  unsigned Depth) {
  if (Depth > 16)
    return Cond::unknown(reasonAt("branch condition too complex", V, At));
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->isZero() ? Cond::makeFalse() : Cond::makeTrue();
  if (auto *IC = dyn_cast<ICmpInst>(V)) {
    // (a | b) == 0 is a == 0 && b == 0 (how tid == 0 && bid == 0 compiles).
    if (IC->isEquality())
      if (auto *C = dyn_cast<ConstantInt>(IC->getOperand(1)); C && C->isZero())
        if (auto *Or = dyn_cast<BinaryOperator>(IC->getOperand(0));
            Or && Or->getOpcode() == Instruction::Or) {
          CondRef Both = Cond::makeTrue();
          for (Value *Op : Or->operands()) {
            auto E = Mapper.convertValue(Op);
            if (!E)
              return Cond::unknown(reasonAt(
                  "data-dependent branch: " + Mapper.failure(), IC, At));
            Both = Cond::conj(Both, Cond::cmp(CmpKind::EQ, *E, Expr(0)));
          }
          return IC->getPredicate() == CmpInst::ICMP_EQ ? Both
                                                        : Cond::negate(Both);
        }
    if (IC->getOperand(0)->getType()->isPointerTy()) {
      // `if (bias)`, `if (mean != nullptr)`: an optional kernel argument.
      // Which way it goes is a fact of the launch, decided per launch
      // (resolveNullTests), so the counts stay exact.
      if (std::optional<std::string> P = nullTestedParam(IC)) {
        if (llvm::find(M.NullTested, *P) == M.NullTested.end())
          M.NullTested.push_back(*P);
        CondRef IsNull = nullTest(*P);
        return IC->getPredicate() == CmpInst::ICMP_EQ ? IsNull
                                                      : Cond::negate(IsNull);
      }
      return Cond::unknown(reasonAt("pointer comparison in a branch", V, At));
    }
    auto L = Mapper.convertValue(IC->getOperand(0));
    auto R = L ? Mapper.convertValue(IC->getOperand(1)) : std::nullopt;
    if (!L || !R) {
      std::string Why = "data-dependent branch: " + Mapper.failure();
      return Cond::unknown(reasonAt(Why, IC, At));
    }
    return Cond::cmp(toCmp(IC->getPredicate()), *L, *R);
  }
  if (isa<FCmpInst>(V))
    return Cond::unknown(
        reasonAt("data-dependent branch (floating-point comparison)", V, At));
  if (auto *BO = dyn_cast<BinaryOperator>(V)) {
    if (BO->getOpcode() == Instruction::And)
      return Cond::conj(condOfValue(BO->getOperand(0), At, Depth + 1),
                        condOfValue(BO->getOperand(1), At, Depth + 1));
    if (BO->getOpcode() == Instruction::Or)
      return Cond::disj(condOfValue(BO->getOperand(0), At, Depth + 1),
                        condOfValue(BO->getOperand(1), At, Depth + 1));
    if (BO->getOpcode() == Instruction::Xor)
      if (auto *C = dyn_cast<ConstantInt>(BO->getOperand(1)); C && C->isOne())
        return Cond::negate(condOfValue(BO->getOperand(0), At, Depth + 1));
  }
  if (auto *Sel = dyn_cast<SelectInst>(V)) {
    // Short-circuit && and || become selects on i1.
    auto *TV = dyn_cast<ConstantInt>(Sel->getTrueValue());
    auto *FV = dyn_cast<ConstantInt>(Sel->getFalseValue());
    CondRef C = condOfValue(Sel->getCondition(), At, Depth + 1);
    if (FV && FV->isZero())
      return Cond::conj(C, condOfValue(Sel->getTrueValue(), At, Depth + 1));
    if (TV && TV->isOne())
      return Cond::disj(C, condOfValue(Sel->getFalseValue(), At, Depth + 1));
  }
  return Cond::unknown(
      reasonAt("branch on a value the analysis cannot express", V, At));
}

CondRef ModelBuilder::edgeCond(BasicBlock *From, BasicBlock *To) {
  Instruction *T = From->getTerminator();
  if (auto *Br = dyn_cast<BranchInst>(T)) {
    if (!Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
      return Cond::makeTrue();
    CondRef C = condOfValue(Br->getCondition(), Br);
    return Br->getSuccessor(0) == To ? C : Cond::negate(C);
  }
  if (auto *SW = dyn_cast<SwitchInst>(T)) {
    auto V = Mapper.convertValue(SW->getCondition());
    if (!V)
      return Cond::unknown(reasonAt("data-dependent switch", SW, SW));
    CondRef Any = Cond::makeFalse();
    bool IsDefault = SW->getDefaultDest() == To;
    CondRef NoneMatch = Cond::makeTrue();
    for (auto Case : SW->cases()) {
      CondRef Eq =
          Cond::cmp(CmpKind::EQ, *V, Expr(Case.getCaseValue()->getSExtValue()));
      if (Case.getCaseSuccessor() == To)
        Any = Cond::disj(Any, Eq);
      NoneMatch = Cond::conj(NoneMatch, Cond::negate(Eq));
    }
    return IsDefault ? Cond::disj(Any, NoneMatch) : Any;
  }
  return Cond::unknown(reasonAt("unsupported control flow", T, T));
}

/// The node representing BB in Region's graph: BB itself, or the header of
/// the outermost subloop of Region containing it.
const BasicBlock *ModelBuilder::nodeOf(const BasicBlock *BB, Loop *Region) {
  Loop *L = LI.getLoopFor(BB);
  if (L == Region)
    return BB;
  while (L && L->getParentLoop() != Region)
    L = L->getParentLoop();
  return L ? L->getHeader() : BB;
}

void ModelBuilder::computeRegionConds(Loop *Region) {
  BasicBlock *Entry = Region ? Region->getHeader() : &F.getEntryBlock();
  // The post-dominance shortcut at joins is only valid when an iteration
  // cannot leave the region before reaching the join.
  bool ShortcutOk =
      !Region || (Region->getExitingBlock() &&
                  Region->getExitingBlock() == Region->getLoopLatch());
  ReversePostOrderTraversal<Function *> RPOT(&F);
  NodeCond[Entry] = Cond::makeTrue();
  for (BasicBlock *BB : RPOT) {
    // Every loop walks the whole function: a kernel with thousands of
    // loops and blocks takes long. Past the limit the model is incomplete,
    // and the analyzer reports the kernel as limited instead of using it.
    if (KernelLimits::expired())
      return;
    if (BB == Entry)
      continue;
    if (Region ? !Region->contains(BB) : false)
      continue;
    if (nodeOf(BB, Region) != BB)
      continue; // Inside a subloop: represented by the subloop's header.
    DomTreeNode *IDomN = DT.getNode(BB)->getIDom();
    if (ShortcutOk && IDomN && PDT.dominates(BB, IDomN->getBlock())) {
      const BasicBlock *D = nodeOf(IDomN->getBlock(), Region);
      auto It = NodeCond.find(D);
      if (It != NodeCond.end() &&
          (!Region || Region->contains(IDomN->getBlock()))) {
        // Copy first: inserting BB may grow the map and invalidate It.
        CondRef Same = It->second;
        NodeCond[BB] = Same;
        continue;
      }
    }
    CondRef C = Cond::makeFalse();
    bool IsSubloopHeader = LI.getLoopFor(BB) != Region;
    Loop *Sub = IsSubloopHeader ? LI.getLoopFor(BB) : nullptr;
    for (BasicBlock *P : predecessors(BB)) {
      if (Region && !Region->contains(P))
        continue;
      if (Sub && Sub->contains(P))
        continue; // Backedge of the subloop.
      if (Region && P == Region->getLoopLatch() && BB == Entry)
        continue;
      const BasicBlock *PN = nodeOf(P, Region);
      auto It = NodeCond.find(PN);
      if (It == NodeCond.end())
        continue; // Not yet visited: a backedge in the region.
      CondRef Edge;
      if (PN != P) {
        // Leaving a subloop: it always finishes if it has a single exit.
        Loop *Exited = LI.getLoopFor(P);
        while (Exited->getParentLoop() != Region)
          Exited = Exited->getParentLoop();
        SmallVector<BasicBlock *, 4> Exits;
        Exited->getUniqueExitBlocks(Exits);
        Edge = Exits.size() == 1 ? Cond::makeTrue()
                                 : Cond::conj(It->second, edgeCond(P, BB));
        if (Exits.size() != 1) {
          C = Cond::disj(C, Edge);
          continue;
        }
      } else {
        Edge = edgeCond(P, BB);
      }
      C = Cond::disj(C, Cond::conj(It->second, Edge));
    }
    NodeCond[BB] = C;
  }
}

// Calls Visit on each user of the value Load loaded, looking through the
// instructions that only move it (casts, vector element moves) and, with
// Merges, through selects and phis; stops at the first Visit that returns
// true.
static bool
anyUseOfLoad(const Instruction &Load, bool Merges,
             function_ref<bool(const Instruction &, const Value *)> Visit) {
  SmallVector<const Value *, 8> Work{&Load};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second || Seen.size() > 64)
      continue;
    for (const User *U : V->users()) {
      const auto *UI = dyn_cast<Instruction>(U);
      if (!UI)
        continue;
      if (isa<CastInst>(UI) || isa<ExtractElementInst>(UI) ||
          isa<InsertElementInst>(UI) || isa<ShuffleVectorInst>(UI) ||
          isa<ExtractValueInst>(UI) || isa<InsertValueInst>(UI) ||
          (Merges && (isa<SelectInst>(UI) || isa<PHINode>(UI)))) {
        Work.push_back(UI);
        continue;
      }
      if (Visit(*UI, V))
        return true;
    }
  }
  return false;
}

// True if the value loaded by Load reaches a shared-memory store, looking
// through the selects and phis of a guarded copy (tile[ty][tx] = cond ? A[i]
// : 0).
static bool storedToShared(const Instruction &Load) {
  return anyUseOfLoad(Load, /*Merges=*/true,
                      [](const Instruction &U, const Value *V) {
                        auto *St = dyn_cast<StoreInst>(&U);
                        return St && St->getValueOperand() == V &&
                               memorySpaceOf(*St) == MemSpace::Shared;
                      });
}

// A global load whose value a loop the load is not in uses: the thread
// keeps the element in a register and reuses it on every iteration (a
// register tile, or a value hoisted out of the loop). A phi carries the
// value into a loop as its initial value, used once: not a reuse.
static bool usedInInnerLoop(const Instruction &Load, const LoopInfo &LI) {
  const Loop *Own = LI.getLoopFor(Load.getParent());
  return anyUseOfLoad(Load, /*Merges=*/false,
                      [&](const Instruction &U, const Value *) {
                        if (isa<PHINode>(U))
                          return false;
                        const Loop *UL = LI.getLoopFor(U.getParent());
                        return UL && UL != Own && (!Own || Own->contains(UL));
                      });
}

ModelBuilder::RegionConds ModelBuilder::regionConds() {
  RegionConds Conds;
  computeRegionConds(nullptr);
  Conds.Top = NodeCond;
  for (Loop *L : LI.getLoopsInPreorder()) {
    NodeCond.clear();
    computeRegionConds(L);
    Conds.PerLoop[L] = NodeCond;
  }
  return Conds;
}

ModelBuilder::StoreList ModelBuilder::globalStores() {
  StoreList Stores;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        if (spaceOfPointer(MI->getRawDest()) == MemSpace::Global)
          Stores.emplace_back(&I, MI->getRawDest());
        continue;
      }
      if (memorySpaceOf(I) != MemSpace::Global)
        continue;
      if (isa<StoreInst>(I))
        Stores.emplace_back(&I, getLoadStorePointerOperand(&I));
      else if (auto Frag = fragmentAccess(I); Frag && Frag->IsStore)
        Stores.emplace_back(&I, Frag->Ptr);
    }
  return Stores;
}

bool ModelBuilder::readBeforeWrite(const Instruction &Load, const Value *Ptr,
                                   const StoreList &Stores) {
  const SCEV *PS = SE.getSCEV(const_cast<Value *>(Ptr));
  for (auto &[St, StPtr] : Stores)
    if (SE.getSCEV(const_cast<Value *>(StPtr)) == PS && DT.dominates(&Load, St))
      return true;
  return false;
}

void ModelBuilder::addNest(BasicBlock &BB, RegionConds &Conds, BlockModel &B) {
  SmallVector<Loop *, 4> Chain;
  for (Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop())
    Chain.insert(Chain.begin(), L);
  Loop *Outer = nullptr;
  for (Loop *L : Chain) {
    NestLevel NL;
    NL.Loop = LoopIndex[L];
    NL.Guard = Conds.in(L->getHeader(), Outer);
    // Blocks after a non-latch exit test miss the last header execution.
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    for (BasicBlock *E : Exiting)
      if (E != &BB && L->contains(&BB) && DT.dominates(E, &BB) &&
          nodeOf(&BB, L) != E && E != L->getLoopLatch())
        NL.SkipsLastIteration = true;
    B.Nest.push_back(NL);
    Outer = L;
  }
  B.InnerGuard = Conds.in(&BB, Outer);
}

void ModelBuilder::addCopyAccesses(const MemIntrinsic &MI, BlockModel &B) {
  // A struct copy touches Len contiguous bytes at each end; a memset its
  // destination only.
  auto *Len = dyn_cast<ConstantInt>(MI.getLength());
  const auto *MT = dyn_cast<MemTransferInst>(&MI);
  for (int IsDst = MT ? 0 : 1; Len && IsDst < 2; ++IsDst) {
    const Value *P = IsDst ? MI.getRawDest() : MT->getRawSource();
    MemSpace Space = spaceOfPointer(P);
    // A shared-memory side of up to 16 bytes is one vector access
    // (a float4 read into registers), for bank conflicts.
    if (Space != MemSpace::Global &&
        !(Space == MemSpace::Shared && Len->getZExtValue() <= 16))
      continue;
    AccessModel A;
    A.Space = Space;
    A.IsStore = IsDst;
    A.Width = Len->getZExtValue();
    A.Bulk = MI.getMetadata(BulkCopyMD) != nullptr;
    A.Inst = &MI;
    locOf(&MI, A.Loc.Line, A.Loc.Column, &A.Loc.File);
    if (auto BO = baseAndOffset(P)) {
      A.Base = BO->first;
      A.Offset = BO->second;
    }
    B.Accesses.push_back(A);
  }
}

AccessModel ModelBuilder::memoryAccess(Instruction &I, MemSpace Space,
                                       const StoreList &Stores) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  AccessModel A;
  A.Space = Space;
  A.IsStore = isa<StoreInst>(I);
  A.IsAtomic = isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I);
  Value *Ptr = const_cast<Value *>(getLoadStorePointerOperand(&I));
  Type *ElemTy = nullptr;
  if (auto *LD = dyn_cast<LoadInst>(&I))
    ElemTy = LD->getType();
  else if (auto *ST = dyn_cast<StoreInst>(&I))
    ElemTy = ST->getValueOperand()->getType();
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Ptr = RMW->getPointerOperand();
    ElemTy = RMW->getValOperand()->getType();
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Ptr = CX->getPointerOperand();
    ElemTy = CX->getNewValOperand()->getType();
  }
  A.Width = DL.getTypeStoreSize(ElemTy).getFixedValue();
  A.Inst = &I;
  A.PartialLanes = I.getMetadata(PartialLanesMD) != nullptr;
  locOf(&I, A.Loc.Line, A.Loc.Column, &A.Loc.File);
  if (auto BO = baseAndOffset(Ptr)) {
    A.Base = BO->first;
    A.Offset = BO->second;
  }
  if (isa<LoadInst>(I) && Space == MemSpace::Global) {
    A.ReadBeforeWrite = readBeforeWrite(I, Ptr, Stores);
    A.StagedInShared = storedToShared(I);
    A.StagedInRegisters = !A.StagedInShared && usedInInnerLoop(I, LI);
  }
  return A;
}

void ModelBuilder::addInstruction(Instruction &I, const StoreList &Stores,
                                  BlockModel &B) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::string Why;
  unsigned Affects = 0;
  if (!classifyInstruction(I, DL, B.Ops, Why, Affects)) {
    B.Affected |= Affects;
    UnknownReason R;
    R.Reason = Why;
    locOf(&I, R.Loc.Line, R.Loc.Column, &R.Loc.File);
    B.Unknowns.push_back(R);
  }
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    addCopyAccesses(*MI, B);
    return;
  }
  if (auto Frag = fragmentAccess(I);
      Frag && memorySpaceOf(I) == MemSpace::Global) {
    B.Accesses.push_back(fragmentModel(*Frag, I));
    if (!Frag->IsStore)
      B.Accesses.back().ReadBeforeWrite = readBeforeWrite(I, Frag->Ptr, Stores);
    return;
  }
  bool IsMem = isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
               isa<AtomicCmpXchgInst>(I);
  MemSpace Space = IsMem ? memorySpaceOf(I) : MemSpace::None;
  if (Space != MemSpace::Global && Space != MemSpace::Shared)
    return;
  B.Accesses.push_back(memoryAccess(I, Space, Stores));
}

void ModelBuilder::nameEmptyBody() {
  // A body that compiles to a bare return does nothing on this
  // architecture: usually an #if on __CUDA_ARCH__ or a feature macro took
  // it out. Zero work would read as a 0 ns kernel; it is an unknown.
  if (F.size() != 1 || F.getEntryBlock().size() != 1 || M.Blocks.size() != 1)
    return;
  StringRef Arch = F.getFnAttribute("target-cpu").getValueAsString();
  UnknownReason R;
  R.Reason = "the kernel's body compiles to nothing for " +
             (Arch.empty() ? std::string("this architecture") : Arch.str()) +
             " (an #if on __CUDA_ARCH__ or an architecture feature may "
             "exclude it; see --arch): no work to count";
  locOf(F.getEntryBlock().getTerminator(), R.Loc.Line, R.Loc.Column,
        &R.Loc.File);
  BlockModel &B = M.Blocks.front();
  B.Affected |= AffectsAll;
  B.Unknowns.push_back(R);
}

void ModelBuilder::buildBlocks() {
  RegionConds Conds = regionConds();
  for (Loop *L : LI.getLoopsInPreorder())
    simplifyTileTripCount(M.Loops[LoopIndex[L]],
                          Conds.in(L->getHeader(), L->getParentLoop()));
  StoreList Stores = globalStores();
  for (BasicBlock &BB : F) {
    if (KernelLimits::expired())
      return; // Incomplete: the analyzer does not use it (computeRegionConds).
    if (!DT.isReachableFromEntry(&BB))
      continue;
    BlockModel B;
    B.BB = &BB;
    locOfBlock(&BB, B.Loc.Line, B.Loc.Column, B.Loc.File);
    addNest(BB, Conds, B);
    for (Instruction &I : BB)
      addInstruction(I, Stores, B);
    M.Blocks.push_back(std::move(B));
  }
}

// A pointer as kernel parameter + byte offset, looking through address
// space casts (__ldg and explicit global pointers cast the parameter).
// The source name of a __shared__ variable: the last component of its
// demangled name (sgemm<128>(...)::As -> As).
static std::string sharedVariableName(const GlobalVariable &GV) {
  std::string D = llvm::demangle(GV.getName().str());
  size_t Colons = D.rfind("::");
  return Colons == std::string::npos ? D : D.substr(Colons + 2);
}

std::optional<std::pair<std::string, std::optional<Expr>>>
ModelBuilder::baseAndOffset(const Value *Ptr, unsigned Depth) {
  if (Depth > 8)
    return std::nullopt;
  const SCEV *PS = SE.getSCEV(const_cast<Value *>(Ptr));
  const SCEV *Base = SE.getPointerBase(PS);
  auto *U = dyn_cast<SCEVUnknown>(Base);
  if (!U)
    return std::nullopt;
  std::optional<Expr> Off = Mapper.convert(SE.removePointerBase(PS));
  if (isa<Argument>(U->getValue()))
    return std::make_pair(Mapper.paramName(U->getValue()), Off);
  // A __shared__ variable, reached through a constant address-space cast.
  const Value *Stripped = U->getValue()->stripPointerCasts();
  if (auto *GV = dyn_cast<GlobalVariable>(Stripped);
      GV && GV->getAddressSpace() == 3)
    return std::make_pair(sharedVariableName(*GV), Off);
  if (auto *Cast = dyn_cast<AddrSpaceCastInst>(U->getValue())) {
    auto Inner = baseAndOffset(Cast->getPointerOperand(), Depth + 1);
    if (!Inner)
      return std::nullopt;
    if (Inner->second && Off)
      Inner->second = *Inner->second + *Off;
    else
      Inner->second.reset();
    return Inner;
  }
  return std::nullopt;
}

AccessModel ModelBuilder::fragmentModel(const FragmentAccess &F,
                                        const Instruction &I) {
  AccessModel A;
  A.IsStore = F.IsStore;
  A.Width = F.ElemBytes;
  locOf(&I, A.Loc.Line, A.Loc.Column, &A.Loc.File);
  auto BO = baseAndOffset(F.Ptr);
  if (!BO)
    return A;
  std::optional<Expr> Ld =
      F.Stride ? Mapper.convertValue(F.Stride) : std::optional<Expr>();
  if (!Ld)
    return A; // Unknown leading dimension: footprint left out.
  A.Base = BO->first;
  A.Offset = BO->second;
  Expr RowStride = F.RowMajor ? *Ld * Expr(F.ElemBytes) : Expr(F.ElemBytes);
  Expr ColStride = F.RowMajor ? Expr(F.ElemBytes) : *Ld * Expr(F.ElemBytes);
  A.Tile = {{RowStride, F.Rows}, {ColStride, F.Cols}};
  return A;
}

KernelModel ModelBuilder::build() {
  // Static shared memory: every addrspace(3) variable the kernel references
  // (after inlining, all uses are in the kernel itself).
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::set<std::string> AmbiguousShared;
  for (const GlobalVariable &GV : F.getParent()->globals()) {
    if (GV.getAddressSpace() != 3 || !GV.getValueType()->isSized())
      continue;
    bool Used = false;
    SmallVector<const User *, 8> Work(GV.users().begin(), GV.users().end());
    SmallPtrSet<const User *, 16> Seen;
    while (!Work.empty() && !Used) {
      const User *U = Work.pop_back_val();
      if (!Seen.insert(U).second)
        continue;
      if (auto *I = dyn_cast<Instruction>(U))
        Used = I->getFunction() == &F;
      else
        Work.append(U->user_begin(), U->user_end());
    }
    if (!Used)
      continue;
    M.StaticSharedBytes +=
        DL.getTypeAllocSize(GV.getValueType()).getFixedValue();
    SharedArrayType T;
    Type *Elem = GV.getValueType();
    while (auto *AT = dyn_cast<ArrayType>(Elem)) {
      T.Dims.push_back(AT->getNumElements());
      Elem = AT->getElementType();
    }
    T.ElementBytes = unsigned(DL.getTypeAllocSize(Elem).getFixedValue());
    std::string Name = sharedVariableName(GV);
    if (AmbiguousShared.count(Name))
      continue;
    if (M.SharedArrays.count(Name)) {
      M.SharedArrays.erase(Name);
      AmbiguousShared.insert(Name);
      continue;
    }
    M.SharedArrays[Name] = T;
  }
  for (Loop *L : LI)
    addLoops(L, -1);
  // Trip counts after every loop has its symbol (inner counts may refer to
  // outer iteration indices).
  for (Loop *L : LI.getLoopsInPreorder())
    analyzeTripCount(L, M.Loops[LoopIndex[L]]);
  buildBlocks();
  nameEmptyBody();
  // Parameter order, whatever the order of the branches.
  llvm::stable_sort(
      M.NullTested, [&](const std::string &A, const std::string &B) {
        return llvm::find(M.ParamNames, A) < llvm::find(M.ParamNames, B);
      });
  return std::move(M);
}

} // namespace

KernelModel roofline::buildKernelModel(Function &F, const KernelDecl *Decl) {
  ModelBuilder B(F, Decl);
  return B.build();
}

// A null test is `null:P == 1`: the symbol is 1 when P is null. The name
// cannot be a source name, so the test never meets a value given for P
// itself (the address an integer cast of P reads).
static constexpr StringRef NullPrefix = "null:";

CondRef roofline::nullTest(const std::string &P) {
  return Cond::cmp(CmpKind::EQ,
                   Expr::symbol(NullPrefix.str() + P, SymbolKind::Param),
                   Expr(1));
}

/// The parameter a nullTest() literal is about, or empty.
static StringRef nullTestedBy(const Cond &C) {
  if (C.K != Cond::Cmp || C.Pred != CmpKind::EQ || C.Rhs != Expr(1) ||
      C.Lhs.terms().size() != 1)
    return "";
  const Expr::Term &T = C.Lhs.terms()[0];
  if (T.Coef != Rational(1) || T.Mono.size() != 1 || T.Mono[0].second != 1 ||
      T.Mono[0].first->Kind != AtomKind::Symbol)
    return "";
  StringRef Name = T.Mono[0].first->Name;
  return Name.consume_front(NullPrefix) ? Name : "";
}

KernelModel roofline::resolveNullTests(const KernelModel &M,
                                       const std::set<std::string> &Null) {
  KernelModel R = M;
  // Conditions are DAGs shared between blocks: each node is rebuilt once.
  DenseMap<const Cond *, CondRef> Done;
  std::function<CondRef(const CondRef &)> Resolve =
      [&](const CondRef &C) -> CondRef {
    auto It = Done.find(C.get());
    if (It != Done.end())
      return It->second;
    CondRef Out = C;
    switch (C->K) {
    case Cond::Cmp:
      if (StringRef P = nullTestedBy(*C); !P.empty())
        Out = Null.count(P.str()) ? Cond::makeTrue() : Cond::makeFalse();
      break;
    case Cond::Not:
      Out = Cond::negate(Resolve(C->Ops[0]));
      break;
    case Cond::And:
      Out = Cond::conj(Resolve(C->Ops[0]), Resolve(C->Ops[1]));
      break;
    case Cond::Or:
      Out = Cond::disj(Resolve(C->Ops[0]), Resolve(C->Ops[1]));
      break;
    default:
      break;
    }
    Done[C.get()] = Out;
    return Out;
  };
  // A block behind a test that fails never runs: without it, its accesses
  // get no findings and its guard no path.
  std::vector<BlockModel> Runs;
  for (BlockModel &B : R.Blocks) {
    bool Never = false;
    for (NestLevel &NL : B.Nest) {
      NL.Guard = Resolve(NL.Guard);
      Never |= NL.Guard->K == Cond::False;
    }
    B.InnerGuard = Resolve(B.InnerGuard);
    Never |= B.InnerGuard->K == Cond::False;
    if (!Never)
      Runs.push_back(std::move(B));
  }
  R.Blocks = std::move(Runs);
  R.NullTested.clear();
  return R;
}

void roofline::dumpKernelModel(const KernelModel &M, raw_ostream &OS) {
  OS << "kernel " << M.MangledName << "\n";
  for (const std::string &P : M.NullTested)
    OS << "  null test of " << P << "\n";
  for (const LoopInfoModel &L : M.Loops) {
    OS << "  loop " << L.Id << " (parent " << L.Parent << ", line "
       << L.Loc.Line << ") var " << L.Var << ": ";
    if (L.TripCount)
      OS << "trip count " << L.TripCount->str();
    else if (L.Rec)
      OS << "recurrence from " << L.Rec->Start.str() << " bound "
         << L.Rec->Bound.str();
    else
      OS << "unknown: " << L.Unknown.Reason;
    OS << "\n";
  }
  for (const BlockModel &B : M.Blocks) {
    OS << "  block " << B.BB->getName() << " line " << B.Loc.Line << "\n";
    for (const NestLevel &NL : B.Nest)
      OS << "    level loop " << NL.Loop << " guard " << NL.Guard->str()
         << (NL.SkipsLastIteration ? " (skips last)" : "") << "\n";
    OS << "    guard " << B.InnerGuard->str() << "\n";
    for (auto &KV : B.Ops)
      OS << "    " << KV.first << " " << KV.second << "\n";
    for (const AccessModel &A : B.Accesses)
      OS << "    access " << (A.Space == MemSpace::Shared ? "shared " : "")
         << A.Base << " + " << (A.Offset ? A.Offset->str() : std::string("?"))
         << " width " << A.Width << (A.IsStore ? " store" : " load") << "\n";
  }
}

bool roofline::mentionsSymbol(const KernelModel &M, const std::string &Name) {
  for (const LoopInfoModel &L : M.Loops)
    if (L.TripCount && L.TripCount->mentions(Name))
      return true;
  for (const BlockModel &B : M.Blocks) {
    if (B.InnerGuard->mentions(Name))
      return true;
    for (const NestLevel &NL : B.Nest)
      if (NL.Guard->mentions(Name))
        return true;
    for (const AccessModel &A : B.Accesses)
      if (A.Offset && A.Offset->mentions(Name))
        return true;
  }
  return false;
}
