//===- AccessAnalysis.cpp -------------------------------------------------===//

#include "AccessAnalysis.h"
#include "DomainCounter.h"
#include "Footprint.h"

#include <variant>

using namespace roofline;

unsigned AccessInfo::idealSectors() const {
  if (!Sectors)
    return 0;
  uint64_t N = (Sectors->BytesUsed + SectorBytes - 1) / SectorBytes;
  return unsigned(std::max<uint64_t>(N, 1));
}

namespace {

/// Lane L's coordinates in block 0, or false if the block has no lane L.
bool laneCoordinates(unsigned L, const KernelLaunch &Launch, IntervalEnv &Env) {
  int64_t X = L, Y = 0, Z = 0;
  if (Launch.Block) {
    const Dim3 &B = *Launch.Block;
    if (int64_t(L) >= B.count())
      return false;
    X = L % B.V[0];
    Y = (L / B.V[0]) % B.V[1];
    Z = L / (B.V[0] * B.V[1]);
  }
  auto Point = [](int64_t V) { return Interval{Rational(V), Rational(V)}; };
  Env["threadIdx.x"] = Point(X);
  Env["threadIdx.y"] = Point(Y);
  Env["threadIdx.z"] = Point(Z);
  for (const char *D : {"blockIdx.x", "blockIdx.y", "blockIdx.z"})
    Env[D] = Point(0);
  return true;
}

// A 16-byte copy that SROA split into four 4-byte stores at one source
// location is one st.v4 after instruction selection: merge accesses of one
// block, location and base whose offsets are consecutive into one access
// of their total width (up to 16 bytes).
std::vector<AccessModel>
mergeSplitAccesses(const std::vector<AccessModel> &In) {
  std::vector<AccessModel> Out;
  std::vector<bool> Used(In.size(), false);
  for (size_t I = 0; I < In.size(); ++I) {
    if (Used[I])
      continue;
    AccessModel A = In[I];
    Used[I] = true;
    if (!A.Offset || !A.Tile.empty() || A.IsAtomic) {
      Out.push_back(A);
      continue;
    }
    // Pieces at the same place, by their constant distance from A.
    std::map<int64_t, size_t> Pieces;
    for (size_t J = I + 1; J < In.size(); ++J) {
      const AccessModel &O = In[J];
      if (Used[J] || !O.Offset || O.Loc.Line != A.Loc.Line ||
          O.Loc.Column != A.Loc.Column || O.Base != A.Base ||
          O.Space != A.Space || O.IsStore != A.IsStore || O.IsAtomic ||
          O.Width != A.Width || !O.Tile.empty())
        continue;
      auto D = (*O.Offset - *A.Offset).asConstant();
      if (D && D->isInteger() && D->toInt64() && !Pieces.count(*D->toInt64()))
        Pieces[*D->toInt64()] = J;
    }
    // Extend forwards over consecutive pieces while the width stays a
    // vector width.
    unsigned Width = A.Width;
    for (auto It = Pieces.find(int64_t(Width));
         It != Pieces.end() && Width + A.Width <= 16;
         It = Pieces.find(int64_t(Width))) {
      Used[It->second] = true;
      Width += A.Width;
    }
    while (Width & (Width - 1)) { // Keep power-of-two vectors.
      Width -= A.Width;
      auto It = Pieces.find(int64_t(Width));
      if (It != Pieces.end())
        Used[It->second] = false;
    }
    A.Width = Width;
    Out.push_back(A);
  }
  return Out;
}

// A thread that reads element after element in a counted loop
// (for k < 4: x[first + k]) could read them as one 8- or 16-byte vector, if
// every lane's first element is aligned to it.
void findVectorWidth(const KernelModel &M, const BlockModel &B,
                     const AccessModel &A,
                     const std::map<std::string, Expr> &Known,
                     const LaneAddresses &Lanes, AccessInfo &I) {
  if (B.Nest.empty() || A.Width >= 16 || !A.Offset)
    return;
  const LoopInfoModel &L = M.Loops[B.Nest.back().Loop];
  if (!L.TripCount)
    return;
  auto TC = L.TripCount->substitute(Known).asConstant();
  auto Split = A.Offset->substitute(Known).splitAffine(L.Var);
  // Only short loops (an unrolled per-thread run of elements): a loop over
  // a problem size (for k < K) is a job for tiling, not for a vector load.
  if (!TC || !TC->isInteger() || *TC < Rational(2) || Rational(16) < *TC ||
      !Split)
    return;
  auto Coef = Split->first.asConstant();
  if (!Coef || *Coef != Rational(int64_t(A.Width)))
    return;
  int64_t Trips = TC->toInt64() ? *TC->toInt64() : 0;
  unsigned V = A.Width;
  while (V < 16 && int64_t(2 * V) <= Trips * int64_t(A.Width))
    V *= 2;
  for (const auto &Addr : Lanes)
    while (Addr && V > A.Width && *Addr % V != 0)
      V /= 2;
  if (V <= A.Width)
    return;
  I.VectorBytes = V;
  I.RunBytes = unsigned(Trips) * A.Width;
  I.LoopLoc = L.Loc;
}

constexpr uint64_t ReuseBudget = 4000000;

// Times the threads of Box execute the accesses of block B.
std::optional<uint64_t> executions(const KernelModel &M, const BlockModel &B,
                                   const std::map<std::string, Expr> &Known,
                                   const ThreadBox &Box) {
  DomainWalker W(M, B, Known, ReuseBudget);
  CountResult C = countExecutions(W, Box);
  if (!C.Value || !C.Value->toInt64() || *C.Value->toInt64() < 0)
    return std::nullopt;
  return uint64_t(*C.Value->toInt64());
}

// How the block comes back to a load's sectors, from the innermost loop
// out: the first loop that moves the address by less than a sector an
// iteration brings a lane's sector back for the iterations it lasts (near);
// a loop that does not move it, around one that does, repeats the walk of
// the loops inside it (far). Re-reads by other warps come in the same
// iteration. Trip counts that depend on the thread (a block-stride loop)
// are those of thread (0,0,0) of block (0,0,0).
void measureReuseDistance(const KernelModel &M, const BlockModel &B,
                          const AccessModel &A,
                          std::map<std::string, Expr> Known, AccessInfo &I) {
  for (const char *Dim : ThreadDimNames)
    Known.emplace(Dim, Expr(0));
  Expr Offset = A.Offset->substitute(Known);
  ReuseShape R;
  bool Moved = false;
  for (auto It = B.Nest.rbegin(); It != B.Nest.rend(); ++It) {
    const LoopInfoModel &L = M.Loops[It->Loop];
    std::optional<Rational> TC =
        L.TripCount ? L.TripCount->substitute(Known).asConstant()
                    : std::nullopt;
    if (!TC || TC->overflowed() || *TC < Rational(0))
      return;
    double Trips = TC->toDouble();
    // Bytes the address moves an iteration: a sector or more when that is
    // not a constant.
    double Step = 0;
    if (Offset.mentions(L.Var)) {
      std::optional<Rational> C;
      if (auto Split = Offset.splitAffine(L.Var))
        C = Split->first.asConstant();
      Step = C ? std::abs(C->toDouble()) : double(SectorBytes);
    }
    if (Step > 0) {
      if (!R.Near && !R.Far && Trips > 1 && Step < SectorBytes)
        R.Near = R.Nest * std::min(SectorBytes / Step, Trips);
      R.Walk *= Trips;
      Moved = true;
    } else if (Moved && Trips > 1) {
      if (!R.Far) {
        R.Far = R.Nest;
        R.FarWalk = R.Walk;
      }
      R.Repeats *= Trips;
    }
    R.Nest *= Trips;
  }
  I.Reuse = R;
}

// How often the elements of a global load are read, by whom, and whether
// the kernel already keeps them in shared memory.
void measureReuse(const KernelModel &M, const BlockModel &B,
                  const AccessModel &A,
                  const std::map<std::string, Expr> &Known,
                  const KernelLaunch &Launch, AccessInfo &I) {
  I.StagedInShared = A.StagedInShared;
  I.StagedInRegisters = A.StagedInRegisters;
  struct {
    ThreadBox Box;
    std::optional<uint64_t> &Requested, &Distinct;
  } Scopes[] = {
      {ThreadBox::block0(*Launch.Block), I.BlockRequested, I.BlockDistinct},
      {ThreadBox::wholeGrid(*Launch.Grid, *Launch.Block), I.GridRequested,
       I.GridDistinct}};
  for (auto &S : Scopes) {
    std::optional<uint64_t> N = &S.Requested == &I.GridRequested
                                    ? I.GridExecutions
                                    : executions(M, B, Known, S.Box);
    if (!N)
      return;
    S.Requested = *N * A.Width;
    S.Distinct = accessFootprint(M, B, A, Known, S.Box, ReuseBudget);
  }
  for (int D = 0; D < 6; ++D) {
    int64_t Extent = D < 3 ? Launch.Block->V[D] : Launch.Grid->V[D - 3];
    if (Extent > 1 && !A.Offset->mentions(ThreadDimNames[D]))
      I.SharedBy.push_back(ThreadDimNames[D]);
  }
  for (const NestLevel &NL : B.Nest) {
    const LoopInfoModel &L = M.Loops[NL.Loop];
    if (!A.Offset->mentions(L.Var)) {
      auto TC = L.TripCount ? L.TripCount->substitute(Known).asConstant()
                            : std::nullopt;
      if (!TC || Rational(1) < *TC)
        I.SameThreadReuse = true;
    }
  }
  measureReuseDistance(M, B, A, Known, I);
}

} // namespace

AccessLaunch roofline::accessLaunch(const KernelModel &M,
                                    const KernelLaunch &Launch,
                                    std::optional<int64_t> MaxThreads) {
  AccessLaunch AL{Launch, ""};
  if (Launch.Block)
    return AL;
  bool Y = mentionsSymbol(M, "threadIdx.y"),
       Z = mentionsSymbol(M, "threadIdx.z");
  Dim3 B;
  std::string From;
  if (MaxThreads && *MaxThreads >= 1) {
    // The first warp of the largest block the kernel allows.
    int64_t X = Y || Z ? std::min<int64_t>(*MaxThreads, 32) : *MaxThreads;
    B.V[0] = X;
    B.V[1] = Y || Z ? std::max<int64_t>(*MaxThreads / X, 1) : 1;
    From = "from __launch_bounds__(" + std::to_string(*MaxThreads) + ")";
  } else {
    B.V[0] = Y || Z ? 32 : 256;
    B.V[1] = Z ? 4 : Y ? 8 : 1;
    B.V[2] = Z ? 2 : 1;
    From = std::string("default for a kernel that uses ") +
           (Z   ? "threadIdx.z"
            : Y ? "threadIdx.y"
                : "only threadIdx.x");
  }
  AL.Launch.Block = B;
  AL.BlockAssumption = "block " + B.str() + " assumed: " + From;
  return AL;
}

const std::vector<int64_t> &roofline::sizeSamples() {
  static const std::vector<int64_t> Samples = [] {
    std::vector<int64_t> S;
    for (int64_t V = 1; V <= 64; ++V)
      S.push_back(V);
    for (int K = 7; K <= 20; ++K)
      for (int64_t D : {-1, 0, 1})
        S.push_back((int64_t(1) << K) + D);
    return S;
  }();
  return Samples;
}

namespace {

/// The first warp's request of one access: the address of each lane, those
/// of the lanes its guards let through (Active; all of them when the
/// guards exclude the whole warp at the first iteration: a later iteration
/// or warp does the access).
struct WarpRequest {
  LaneAddresses All, Active;
  const LaneAddresses &used() const { return Active.empty() ? All : Active; }
};

/// The request at Env, or the names of the symbols it still needs.
std::variant<WarpRequest, std::set<std::string>>
warpRequest(const Expr &Offset, const std::vector<CondRef> &Guards,
            const KernelLaunch &Launch, IntervalEnv Env) {
  WarpRequest R;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneCoordinates(L, Launch, Env))
      continue;
    auto V = Offset.evaluate(Env);
    if (!V || !V->isInteger() || !V->toInt64()) {
      std::set<std::string> Syms, Need;
      Offset.collectSymbols(Syms);
      for (const std::string &S : Syms)
        if (!Env.count(S))
          Need.insert(S);
      return Need;
    }
    R.All[L] = *V->toInt64();
    bool Active = true;
    for (const CondRef &G : Guards)
      Active &= G->evaluate(Env) != Truth::False;
    if (Active)
      R.Active[L] = R.All[L];
  }
  return R;
}

/// Of degree at most 1 in the thread coordinates, inside divisions,
/// remainders and selects too (`A[(tid / 4) * K + tid % 4]`): the warps are
/// moved copies of warp 0, up to where a remainder wraps. `x[i * i]` and
/// `blockIdx.x * threadIdx.x` are not.
static bool quasiAffineInThreads(const Expr &E) {
  for (const Expr::Term &T : E.terms()) {
    unsigned Degree = 0;
    for (const auto &[A, Power] : T.Mono) {
      if (A->Kind == AtomKind::Symbol) {
        Degree += A->SymKind == SymbolKind::Thread ? Power : 0;
        continue;
      }
      if (llvm::none_of(A->Ops, [](const Expr &Op) {
            return Op.mentionsKind(SymbolKind::Thread);
          }))
        continue;
      Degree += Power;
      if (!llvm::all_of(A->Ops, quasiAffineInThreads))
        return false;
    }
    if (Degree > 1)
      return false;
  }
  return true;
}

/// What the request costs: sectors (global) or bank conflicts (shared),
/// with the lane shape.
struct RequestVerdict {
  std::optional<SectorReport> Sectors;
  std::optional<BankReport> Banks;
  std::optional<BankAdvice> BankFix;
  AccessClass Class = AccessClass::Irregular;
  int64_t LaneStride = 0;

  /// What a finding would say, sizes apart. A global request's sector
  /// count may move with the sizes' alignment (a row of N floats starts
  /// mid-sector for odd N) while it stays over the ideal: that is one
  /// verdict, reported with the range of counts.
  std::vector<int64_t> signature() const {
    std::vector<int64_t> S = {int64_t(Class)};
    if (Sectors) {
      uint64_t Ideal = std::max<uint64_t>((Sectors->BytesUsed + 31) / 32, 1);
      llvm::append_range(
          S, std::initializer_list<int64_t>{Sectors->Sectors > Ideal,
                                            int64_t(Sectors->BytesUsed),
                                            Sectors->ActiveLanes});
    }
    if (Banks)
      llvm::append_range(
          S, std::initializer_list<int64_t>{Banks->Ways, Banks->Wavefronts,
                                            Banks->MinWavefronts});
    return S;
  }
};

/// What advice on a shared access's bank conflict needs besides its lanes:
/// the array's layout, and the bytes around its address each thread
/// accesses.
struct SharedContext {
  SharedLayout Layout;
  ThreadRun Run;
};

RequestVerdict judge(const WarpRequest &R, const AccessModel &A,
                     unsigned RowLanes, const SharedContext &Shared) {
  RequestVerdict V;
  SectorReport Shape = analyzeGlobalRequest(R.used(), A.Width, RowLanes);
  if (A.Space == MemSpace::Shared) {
    // A merged access is the wider instruction at the first lane address
    // of its run (the loop indices are at their first value here).
    unsigned Width = std::max(A.Width, A.MachineWidth);
    LaneAddresses Lanes = R.used();
    if (Width > A.Width)
      for (std::optional<int64_t> &L : Lanes)
        if (L)
          *L -= ((*L % Width) + Width) % Width;
    V.Banks = analyzeSharedRequest(Lanes, Width);
    if (V.Banks->Ways > 1)
      V.BankFix =
          adviseBankConflict(Lanes, Width, *V.Banks, Shared.Layout, Shared.Run);
  } else
    V.Sectors = Shape;
  V.Class = Shape.Class;
  V.LaneStride = Shape.LaneStride;
  return V;
}

/// Whether every name is a size: a kernel parameter, gridDim or blockDim.
bool allSizes(const KernelModel &M, const std::set<std::string> &Names) {
  for (const std::string &N : Names)
    if (!llvm::is_contained(M.ParamNames, N) &&
        !llvm::StringRef(N).starts_with("gridDim.") &&
        !llvm::StringRef(N).starts_with("blockDim."))
      return false;
  return !Names.empty();
}

/// What a sweep of the missing sizes found: the verdict at the smallest
/// sample From from which every larger one agrees, and the most sectors a
/// request takes over those samples.
struct SweptVerdict {
  RequestVerdict Verdict;
  int64_t From = 0;
  unsigned MaxSectors = 0;
};

/// Sweeps the missing sizes Need over sizeSamples(), all at once (nullopt
/// if the verdicts of the samples from 2^16 on differ).
std::optional<SweptVerdict>
sweepSizes(const Expr &Offset, const std::vector<CondRef> &Guards,
           const KernelLaunch &Launch, const IntervalEnv &Env,
           const std::set<std::string> &Need, const AccessModel &A,
           unsigned RowLanes, const SharedContext &Shared) {
  const std::vector<int64_t> &Samples = sizeSamples();
  std::vector<RequestVerdict> Verdicts;
  for (int64_t V : Samples) {
    IntervalEnv E = Env;
    for (const std::string &N : Need)
      E[N] = Interval{Rational(V), Rational(V)};
    auto R = warpRequest(Offset, Guards, Launch, E);
    if (!std::holds_alternative<WarpRequest>(R))
      return std::nullopt;
    Verdicts.push_back(judge(std::get<WarpRequest>(R), A, RowLanes, Shared));
  }
  // The large sizes (2^16 on) set the verdict and, for global requests,
  // the range of sectors; it holds from the smallest sample on from which
  // every sample has that verdict and sectors in that range.
  const int64_t Large = int64_t(1) << 16;
  size_t FirstLarge = 0;
  while (Samples[FirstLarge] < Large)
    ++FirstLarge;
  std::vector<int64_t> Sig = Verdicts.back().signature();
  unsigned Lo = ~0u, Hi = 0;
  for (size_t I = FirstLarge; I < Verdicts.size(); ++I) {
    if (Verdicts[I].signature() != Sig)
      return std::nullopt;
    if (const auto &Sec = Verdicts[I].Sectors) {
      Lo = std::min(Lo, Sec->Sectors);
      Hi = std::max(Hi, Sec->Sectors);
    }
  }
  auto Agrees = [&](const RequestVerdict &V) {
    return V.signature() == Sig && (!V.Sectors || (V.Sectors->Sectors >= Lo &&
                                                   V.Sectors->Sectors <= Hi));
  };
  size_t From = FirstLarge;
  while (From > 0 && Agrees(Verdicts[From - 1]))
    --From;
  SweptVerdict S{Verdicts[From], Samples[From], 0};
  // The fewest sectors go with the verdict reported, the most beside it.
  for (size_t I = From; I < Verdicts.size(); ++I)
    if (Verdicts[I].Sectors &&
        Verdicts[I].Sectors->Sectors < S.Verdict.Sectors->Sectors)
      S.Verdict = Verdicts[I];
  if (Hi > Lo)
    S.MaxSectors = Hi;
  return S;
}

/// The shared array A accesses and the run of bytes each thread accesses
/// around A's address: the array's layout from the kernel's __shared__
/// variables, aligned to the widest access of it, and the bytes next to
/// A's that A covers over the iterations of a short counted loop (x[i + k],
/// k < 4) or that accesses of the array in the same direction at a
/// constant distance from it cover (x[2 * i] and x[2 * i + 1]).
SharedContext sharedContext(const KernelModel &M, const BlockModel &B,
                            const AccessModel &A,
                            const std::vector<std::vector<AccessModel>> &Merged,
                            const std::map<std::string, Expr> &Known) {
  SharedContext C;
  auto It = M.SharedArrays.find(A.Base);
  if (It != M.SharedArrays.end()) {
    C.Layout.Dims = It->second.Dims;
    C.Layout.ElementBytes = It->second.ElementBytes;
  }
  // [Start, End) byte ranges from A's offset that the thread accesses.
  std::vector<std::pair<int64_t, int64_t>> Ranges = {{0, A.Width}};
  for (const std::vector<AccessModel> &Block : Merged)
    for (const AccessModel &O : Block) {
      if (O.Space != MemSpace::Shared || O.Base != A.Base)
        continue;
      C.Layout.AlignBytes = std::max(C.Layout.AlignBytes, O.Width);
      if (!O.Offset || !A.Offset || O.IsStore != A.IsStore || O.IsAtomic ||
          !O.Tile.empty())
        continue;
      auto D = (*O.Offset - *A.Offset).asConstant();
      if (D && D->isInteger() && D->toInt64() && *D->toInt64() != 0)
        Ranges.push_back({*D->toInt64(), *D->toInt64() + O.Width});
    }
  if (!B.Nest.empty() && A.Offset) {
    const LoopInfoModel &L = M.Loops[B.Nest.back().Loop];
    auto TC = L.TripCount ? L.TripCount->substitute(Known).asConstant()
                          : std::nullopt;
    auto Split = A.Offset->substitute(Known).splitAffine(L.Var);
    auto Coef = Split ? Split->first.asConstant() : std::nullopt;
    if (TC && TC->isInteger() && TC->toInt64() && *TC->toInt64() <= 16 &&
        Coef && *Coef == Rational(int64_t(A.Width)))
      for (int64_t K = 1; K < *TC->toInt64(); ++K)
        Ranges.push_back({K * A.Width, (K + 1) * A.Width});
  }
  // The contiguous stretch around [0, Width): forwards over the ranges by
  // start, backwards by end.
  llvm::sort(Ranges);
  C.Run = {0, int64_t(A.Width)};
  for (auto [Lo, Hi] : Ranges)
    if (Lo <= C.Run.End)
      C.Run.End = std::max(C.Run.End, Hi);
  for (auto [Lo, Hi] : llvm::reverse(Ranges))
    if (Hi >= C.Run.Begin)
      C.Run.Begin = std::min(C.Run.Begin, Lo);
  return C;
}

/// What the accesses of one analyzeAccesses share: the launch, the values
/// known, the lanes' environment and each block's accesses with split
/// stores merged.
struct AccessContext {
  AccessContext(const KernelModel &M, const AccessLaunch &AL,
                const std::map<std::string, int64_t> &Params);

  const KernelModel &M;
  const AccessLaunch &AL;
  const KernelLaunch &Launch;
  std::map<std::string, Expr> Known;
  /// The known values that are numbers.
  IntervalEnv Base;
  /// Lanes per row of threadIdx.x within a warp.
  unsigned RowLanes = WarpSize;
  std::vector<std::vector<AccessModel>> Merged;
};

AccessContext::AccessContext(const KernelModel &M, const AccessLaunch &AL,
                             const std::map<std::string, int64_t> &Params)
    : M(M), AL(AL), Launch(AL.Launch), Known(knownValues(Params, Launch)) {
  // A block from the launch (or assumed) without a grid: blockDim is known.
  if (!Launch.known() && Launch.Block)
    for (int I = 0; I < 3; ++I)
      Known[std::string("blockDim.") + "xyz"[I]] = Expr(Launch.Block->V[I]);
  for (auto &KV : Known)
    if (auto C = KV.second.asConstant())
      Base[KV.first] = Interval{*C, *C};
  if (Launch.Block && Launch.Block->V[0] < int64_t(WarpSize))
    RowLanes = unsigned(Launch.Block->V[0]);
  for (const BlockModel &B : M.Blocks)
    Merged.push_back(mergeSplitAccesses(B.Accesses));
}

/// What A is, where, and how often it runs: per thread at Env (every guard
/// passing) and, with a launch, over the grid.
AccessInfo accessFacts(const AccessContext &C, const BlockModel &B,
                       const AccessModel &A, const IntervalEnv &Env) {
  AccessInfo I;
  I.Loc = A.Loc;
  I.Space = A.Space;
  I.IsStore = A.IsStore;
  I.IsAtomic = A.IsAtomic;
  I.Base = A.Base;
  I.Width = A.Width;
  if (A.Space == MemSpace::Shared && A.MachineWidth > A.Width)
    I.MachineWidth = A.MachineWidth;
  I.Bulk = A.Bulk;
  DomainWalker W(C.M, B, C.Known, 1);
  if (const std::optional<Expr> &S = W.innerSum(0))
    I.CountPerThread = S->substitute(C.Known).evaluate(Env);
  if (C.Launch.known()) {
    std::optional<uint64_t> N = executions(
        C.M, B, C.Known, ThreadBox::wholeGrid(*C.Launch.Grid, *C.Launch.Block));
    I.GridExecutions = N;
    // A copy of the code no thread of this launch runs (a loop version
    // the compiler made for other sizes) is no finding's place.
    if (N && *N == 0)
      I.Reachable = false;
  }
  return I;
}

/// Sizes the user did not give (Need): a verdict that holds for every
/// large enough size is reported with the range it holds for. False, with
/// I.Unknown saying so, when there is none.
bool sweptVerdict(const AccessContext &C, const BlockModel &B,
                  const AccessModel &A, const Expr &Offset,
                  const std::vector<CondRef> &Guards, const IntervalEnv &Env,
                  const std::set<std::string> &Need,
                  const SharedContext &Shared, AccessInfo &I,
                  RequestVerdict &V) {
  I.Missing.assign(Need.begin(), Need.end());
  std::optional<SweptVerdict> Swept;
  if (allSizes(C.M, Need))
    Swept =
        sweepSizes(Offset, Guards, C.Launch, Env, Need, A, C.RowLanes, Shared);
  if (!Swept) {
    std::string Names;
    for (const std::string &S : Need)
      Names += (Names.empty() ? "'" : ", '") + S + "'";
    I.Unknown = Names.empty() ? "the address has no value for the first warp"
                              : "the address needs " + Names +
                                    " (give sizes with --param or --launch)";
    return false;
  }
  V = Swept->Verdict;
  if (V.Sectors && Swept->MaxSectors > V.Sectors->Sectors)
    I.MaxSectors = Swept->MaxSectors;
  std::string Names;
  for (const std::string &S : Need)
    Names += (Names.empty() ? "" : ", ") + S;
  I.ValidFor = Names + " ≥ " + std::to_string(Swept->From);
  if (V.Class == AccessClass::Strided && A.Width)
    if (auto Split = Offset.splitAffine("threadIdx.x")) {
      Expr Stride =
          Split->first * Expr::constant(Rational::fraction(1, A.Width));
      I.StrideFormula = Stride.str();
      // A stride that is a number whatever the sizes.
      if (auto Const = Stride.asConstant(); Const && Const->isInteger())
        I.StrideElements = Const->toInt64().value_or(0);
    }
  // The per-thread run (a vector width) read at the first size the
  // verdict holds for: whether it is aligned may depend on sizes, the
  // run itself does not.
  if (A.Space == MemSpace::Global) {
    IntervalEnv At = Env;
    for (const std::string &N : Need)
      At[N] = Interval{Rational(Swept->From), Rational(Swept->From)};
    auto R = warpRequest(Offset, Guards, C.Launch, At);
    if (auto *W = std::get_if<WarpRequest>(&R))
      findVectorWidth(C.M, B, A, C.Known, W->used(), I);
  }
  return true;
}

/// Everything analyzeAccesses says of access A of block B.
AccessInfo analyzeAccess(const AccessContext &C, const BlockModel &B,
                         const AccessModel &A) {
  IntervalEnv Env = C.Base;
  for (const char *D : ThreadDimNames)
    Env[D] = Interval{Rational(0), Rational(0)};
  for (const NestLevel &NL : B.Nest)
    Env[C.M.Loops[NL.Loop].Var] = Interval{Rational(0), Rational(0)};
  AccessInfo I = accessFacts(C, B, A, Env);
  if (!A.Offset || A.Base.empty()) {
    I.Unknown = "the address depends on data (not an affine function of "
                "the thread and loop indices)";
    return I;
  }
  if (auto Split = A.Offset->splitAffine("threadIdx.x"))
    I.LaneCoefficient = Split->first.str();
  Expr Offset = A.Offset->substitute(C.Known);
  I.AffineInThreads = quasiAffineInThreads(Offset);

  // The guards of this block, to leave out lanes that do not access.
  std::vector<CondRef> Guards;
  for (const NestLevel &NL : B.Nest)
    Guards.push_back(NL.Guard->substitute(C.Known));
  Guards.push_back(B.InnerGuard->substitute(C.Known));

  SharedContext Shared;
  if (A.Space == MemSpace::Shared)
    Shared = sharedContext(C.M, B, A, C.Merged, C.Known);
  auto Request = warpRequest(Offset, Guards, C.Launch, Env);
  RequestVerdict V;
  if (auto *Need = std::get_if<std::set<std::string>>(&Request)) {
    if (!sweptVerdict(C, B, A, Offset, Guards, Env, *Need, Shared, I, V))
      return I;
  } else {
    V = judge(std::get<WarpRequest>(Request), A, C.RowLanes, Shared);
  }
  I.BlockAssumption = C.AL.BlockAssumption;
  I.Sectors = V.Sectors;
  I.Banks = V.Banks;
  // ldmatrix .x1/.x2: the lanes that name rows read them whole, one
  // conflict-free pass per matrix when the rows are distinct; the other
  // lanes' addresses are not part of the request (docs/counting.md).
  if (A.PartialLanes && I.Banks) {
    I.Banks->Wavefronts = I.Banks->MinWavefronts;
    I.Banks->Ways = 1;
    I.Banks->Bank = -1;
    I.Banks->CollidingLanes.clear();
    V.BankFix.reset();
  }
  I.BankFix = V.BankFix;
  I.Class = V.Class;
  if (V.Class == AccessClass::Strided && A.Width && I.StrideFormula.empty())
    I.StrideElements = V.LaneStride / int64_t(A.Width);
  if (A.Space == MemSpace::Global && I.ValidFor.empty()) {
    findVectorWidth(C.M, B, A, C.Known, std::get<WarpRequest>(Request).used(),
                    I);
    if (!A.IsStore && !A.IsAtomic && C.Launch.known())
      measureReuse(C.M, B, A, C.Known, C.Launch, I);
  }
  return I;
}

} // namespace

std::vector<AccessInfo>
roofline::analyzeAccesses(const KernelModel &M, const AccessLaunch &AL,
                          const std::map<std::string, int64_t> &Params) {
  AccessContext C(M, AL, Params);
  std::vector<AccessInfo> Out;
  for (size_t BI = 0; BI < M.Blocks.size(); ++BI)
    for (const AccessModel &A : C.Merged[BI])
      // WMMA fragments are a warp-wide tile, not one lane each.
      if (A.Tile.empty())
        Out.push_back(analyzeAccess(C, M.Blocks[BI], A));
  std::stable_sort(Out.begin(), Out.end(),
                   [](const AccessInfo &X, const AccessInfo &Y) {
                     return std::make_pair(X.Loc.Line, X.Loc.Column) <
                            std::make_pair(Y.Loc.Line, Y.Loc.Column);
                   });
  return Out;
}

SectorTraffic
roofline::requestedSectorBytes(const std::vector<AccessInfo> &Accesses,
                               uint64_t RequestedBytes) {
  SectorTraffic T;
  // Per lane, an access fetches Sectors * 32 / ActiveLanes bytes instead of
  // its Width; the difference (negative for a broadcast, which one sector
  // serves) adjusts the requested bytes.
  Rational Total = Rational(int64_t(RequestedBytes));
  for (const AccessInfo &A : Accesses) {
    if (A.Space != MemSpace::Global || !A.Width)
      continue;
    if (!A.GridExecutions) {
      if (T.Partial.empty())
        T.Partial =
            "the executions of " + (A.Expr.empty() ? A.Base : A.Expr) +
            " at line " + std::to_string(A.Loc.Line) +
            " are not counted exactly: its bytes count, not its sectors";
      continue;
    }
    Rational PerLane;
    // The first warp's sectors stand for every warp's when its lanes form
    // a pattern or the address is affine (other warps are moved copies);
    // an irregular pattern of another address (`x[(i * i) % n]`) says
    // nothing of the next warp: each lane its own sector(s).
    if (A.Sectors && A.Sectors->ActiveLanes &&
        (A.Class != AccessClass::Irregular || A.AffineInThreads))
      PerLane = Rational::fraction(A.Sectors->Sectors * SectorBytes,
                                   A.Sectors->ActiveLanes);
    else
      PerLane = Rational(
          int64_t((A.Width + SectorBytes - 1) / SectorBytes * SectorBytes));
    Total = Total + Rational(int64_t(*A.GridExecutions)) *
                        (PerLane - Rational(int64_t(A.Width)));
  }
  if (Total.overflowed()) {
    T.Partial = "the sector count overflows";
    return T;
  }
  if (Total < Rational(0))
    Total = Rational(0);
  // Whole bytes: a fraction comes from partial warps and rounds up.
  T.Bytes = uint64_t(Total.ceil());
  return T;
}

std::optional<uint64_t>
roofline::blockLoadFootprint(const KernelModel &M, const KernelLaunch &Launch,
                             const std::map<std::string, int64_t> &Params) {
  if (!Launch.known())
    return std::nullopt;
  std::map<std::string, Expr> Known = knownValues(Params, Launch);
  ThreadBox Block0 = ThreadBox::block0(*Launch.Block);
  std::map<std::string, FootprintSet> PerBuffer;
  for (const BlockModel &B : M.Blocks)
    for (const AccessModel &A : B.Accesses)
      if (A.Space == MemSpace::Global && !A.IsStore && !A.IsAtomic &&
          !addAccessFootprint(M, B, A, Known, Block0, ReuseBudget,
                              PerBuffer[A.Base]))
        return std::nullopt;
  uint64_t Total = 0;
  for (auto &KV : PerBuffer) {
    auto N = footprintSize(KV.second);
    if (!N)
      return std::nullopt;
    Total += *N;
  }
  return Total;
}

std::optional<double> roofline::gridRequests(const AccessInfo &A) {
  // A shared request is taken to be a full warp's: the bank analysis
  // does not keep its active lanes (a partial edge warp is rare there).
  unsigned Lanes = A.Sectors ? A.Sectors->ActiveLanes : A.Banks ? 32 : 0;
  if (!A.GridExecutions || !Lanes)
    return std::nullopt;
  // A merged shared access: one request for each run of accesses.
  double Merged =
      A.MachineWidth && A.Banks ? double(A.MachineWidth) / A.Width : 1.0;
  return double(*A.GridExecutions) / Lanes / Merged;
}
