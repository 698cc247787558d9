//===- Prediction.cpp -----------------------------------------------------===//

#include "Prediction.h"
#include "Counters.h"
#include "Format.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace roofline;

namespace {

class Predictor {
public:
  Predictor(const KernelCounts &KC, const std::vector<AccessInfo> &Accesses,
            const RooflineMetrics &M, const GpuSpec &Gpu)
      : KC(KC), Accesses(Accesses), M(M), Gpu(Gpu) {}
  Prediction run();

private:
  /// What a resource's work is compared with for "per FMA": warp-level
  /// work with warp FMAs, thread-level with thread FMAs, bytes and FLOPs
  /// with neither.
  enum class Per { None, Warp, Thread };
  void add(const char *Name, std::string Title, const char *Unit, Per Yard,
           double Work, std::optional<double> Rate, std::string Detail = {});
  double inst(const char *Counter) const;
  void dram();
  void l2();
  void l1();
  void instructions();
  void flops();
  void latency();
  void busiestSM();
  void barrierLatency();

  const KernelCounts &KC;
  const std::vector<AccessInfo> &Accesses;
  const RooflineMetrics &M;
  const GpuSpec &Gpu;
  Prediction P;
  double WarpFmas = 0;
  bool Tensor = false; ///< FMAs are not the yardstick then.
  std::map<std::string, Per> Yardsticks;
  std::optional<double> L2Bytes; ///< What l2() counted.
  double RoundCycles = 0;        ///< What latency() took a round trip as.
};

} // namespace

void Predictor::add(const char *Name, std::string Title, const char *Unit,
                    Per Yard, double Work, std::optional<double> Rate,
                    std::string Detail) {
  if (Work <= 0)
    return;
  if (!Rate || *Rate <= 0) {
    P.LeftOut.push_back(Title + ": the GPU data has no throughput for it on " +
                        Gpu.Id);
    return;
  }
  ResourceTime R;
  R.Name = Name;
  R.Title = std::move(Title);
  R.Unit = Unit;
  R.Work = Work;
  R.Throughput = *Rate;
  R.Seconds = Work / *Rate;
  R.Detail = std::move(Detail);
  Yardsticks[R.Name] = Yard;
  P.Resources.push_back(std::move(R));
}

double Predictor::inst(const char *Counter) const {
  auto It = KC.Instructions.find(Counter);
  return It == KC.Instructions.end() ? 0.0 : It->second.toDouble();
}

void Predictor::dram() {
  std::optional<double> Bytes = M.DramEstimate;
  std::string Detail = "the cache model's estimate";
  if (!Bytes) {
    Bytes = M.DramLower;
    Detail = "the compulsory bytes (no estimate: " + KC.Estimate.Why + ")";
  }
  if (!Bytes)
    return;
  double Share = Gpu.Pipes.DramAchievableFraction.value_or(1.0);
  Detail += Share < 1 ? ", at " + formatPercent(Share) +
                            " of the datasheet bandwidth streaming kernels "
                            "reach (published measurement)"
                      : ", at the datasheet bandwidth";
  add("dram", "DRAM bytes", "bytes", Per::None, *Bytes,
      Gpu.DramBandwidth * Share, Detail);
}

// What the global accesses move between L1 and L2: a load's distinct bytes
// per block once, plus the re-reads L1 cannot keep (TileCost.h); a store's
// or atomic's every sector (L1 writes through).
void Predictor::l2() {
  double Bytes = 0;
  bool Missing = false;
  for (const AccessInfo &A : Accesses) {
    if (A.Space != MemSpace::Global || !A.Reachable)
      continue;
    std::optional<double> Requests = gridRequests(A);
    if (!Requests || !A.Sectors) {
      // A data-dependent address: a sector per lane.
      if (A.GridExecutions)
        Bytes += double(*A.GridExecutions) * SectorBytes;
      else
        Missing = true;
      continue;
    }
    double Fetched = *Requests * A.Sectors->Sectors * SectorBytes;
    bool Load = !A.IsStore && !A.IsAtomic;
    if (Load && A.Tile && A.Tile->Why.empty() && A.BlockRequested &&
        *A.BlockRequested && A.BlockDistinct && A.GridRequested) {
      double Blocks = double(*A.GridRequested) / double(*A.BlockRequested);
      Fetched = std::min(Fetched, Blocks * double(*A.BlockDistinct) +
                                      double(A.Tile->L2Bytes));
    }
    Bytes += Fetched;
  }
  if (Missing) {
    P.LeftOut.push_back("L2 bytes: an access's requests are unknown");
    return;
  }
  L2Bytes = Bytes;
  add("l2", "L2 bytes", "bytes", Per::None, Bytes,
      Gpu.L2Bandwidth > 0 ? std::optional<double>(Gpu.L2Bandwidth)
                          : std::nullopt,
      "loads after L1 reuse within a block, stores and atomics by sector");
}

// The L1 data stage returns 128 bytes a clock: one wavefront of a global or
// shared request. A bulk or TMA copy does not pass the LSU: the copy engine
// writes (or reads) shared memory, 128 bytes a wavefront.
void Predictor::l1() {
  double Global = 0, Shared = 0, Bulk = 0;
  for (const AccessInfo &A : Accesses) {
    if (A.Bulk && A.Reachable && A.GridExecutions) {
      Bulk += double(*A.GridExecutions) * std::ceil(A.Width / 128.0);
      continue;
    }
    std::optional<double> Requests = gridRequests(A);
    if (!Requests || !A.Reachable)
      continue;
    if (A.Sectors)
      Global += *Requests * A.Sectors->wavefronts(A.Width);
    else if (A.Banks)
      Shared += *Requests * A.Banks->Wavefronts;
  }
  std::optional<double> Rate;
  if (auto Bytes = Gpu.pipeRate("shared_bytes"))
    Rate = *Bytes / 128.0;
  std::string Detail =
      formatCount(Shared) + " shared, " + formatCount(Global) + " global";
  if (Bulk > 0)
    Detail += ", " + formatCount(Bulk) +
              " of bulk copies into or out of "
              "shared memory";
  Shared += Bulk;
  add("l1_wavefronts",
      Shared >= Global ? "shared-memory wavefronts" : "L1 wavefronts",
      "wavefronts", Per::Warp, Global + Shared, Rate, Detail);
}

void Predictor::instructions() {
  if (KC.Instructions.empty()) {
    P.LeftOut.push_back("instruction issue and pipes: " + KC.InstructionsWhy);
    return;
  }
  if (!KC.InstructionsPartial.empty())
    P.LeftOut.push_back("instructions of what is not counted: " +
                        KC.InstructionsPartial);
  if (inst(counter::InstCall) > 0)
    P.LeftOut.push_back(
        "instructions inside calls (functions not inlined, library math "
        "that could not be run): each call counts as one instruction");
  WarpFmas = inst(counter::InstFma) / WarpSize;
  add("issue", "instruction issue", "warp instructions", Per::Warp,
      inst(counter::InstIssue) / WarpSize, Gpu.pipeRate("issue"));
  add("lsu", "load/store instructions", "warp instructions", Per::Warp,
      inst(counter::InstMemory) / WarpSize, Gpu.pipeRate("lsu"));
  double Fp32 = inst(counter::InstFp32) + inst(counter::InstIntMad);
  double Alu = inst(counter::InstAlu);
  add("fp32", "FP32 pipe (FFMA, FADD, FMUL, IMAD)", "thread instructions",
      Per::Thread, Fp32, Gpu.pipeRate("fp32"));
  add("int32", "integer pipe", "thread instructions", Per::Thread, Alu,
      Gpu.pipeRate("int32"));
  // On CC 8.6, 8.9 and 12.0 half the FP32 lanes are the integer lanes
  // (GA102, AD102 and GB202 whitepapers): both kinds of work share them.
  auto F = Gpu.pipeRate("fp32");
  llvm::StringRef Arch(Gpu.Arch);
  bool SharedLanes = Arch.starts_with("sm_86") || Arch.starts_with("sm_89") ||
                     Arch.starts_with("sm_120");
  if (F && SharedLanes && Alu > 0)
    add("fp32_int32", "FP32 and integer lanes (shared)", "thread instructions",
        Per::Thread, Fp32 + Alu, F);
  struct {
    const char *Counter, *Name, *Title;
  } Pipes[] = {{counter::InstFp64, "fp64", "FP64 pipe"},
               {counter::InstFp16, "fp16", "FP16 pipe"},
               {counter::InstBf16, "bf16", "BF16 pipe"},
               {counter::InstMufu, "mufu", "special functions (MUFU)"},
               {counter::InstConvert, "conversion", "conversions"},
               {counter::InstShuffle, "shuffle", "warp shuffles"}};
  for (auto &Pipe : Pipes)
    add(Pipe.Name, Pipe.Title, "thread results", Per::Thread,
        inst(Pipe.Counter), Gpu.pipeRate(Pipe.Name));
}

// The FLOPs at the datasheet peaks, each precision at its own (the speed of
// light's compute time): tensor-core work has no finer pipe model.
void Predictor::flops() {
  if (!M.Flops || !M.ComputeSeconds || *M.ComputeSeconds <= 0)
    return;
  add(M.Unit == ComputeUnit::TensorCore ? "tensor" : "flops",
      "FLOPs at peak on " + unitText(M.Precision, M.Unit), "FLOPs", Per::None,
      *M.Flops, *M.Flops / *M.ComputeSeconds,
      "every precision at its datasheet peak");
  for (auto &KV : KC.Totals)
    if (llvm::StringRef(KV.first).starts_with(counter::TensorFlopsPrefix) &&
        KV.second && !KV.second->isZero())
      Tensor = true;
}

// Little's law: a warp waits for its loads a round trip per chain of
// dependent loads in a region of its machine code (LoadRounds.h), and an SM
// has WarpsPerSM warps to overlap those waits with, so the rounds complete
// at most at warps in flight / latency. A round's latency is L2's, plus
// DRAM's extra for the share of the loaded bytes that comes from DRAM.
void Predictor::latency() {
  double Rounds = inst(counter::InstLoadRounds) / WarpSize;
  if (Rounds <= 0)
    return;
  const Occupancy &O = KC.Occ;
  const char *Title = "memory latency (Little's law)";
  std::optional<double> L2 = Gpu.Pipes.latencyCycles("l2");
  std::optional<double> Dram = Gpu.Pipes.latencyCycles("dram");
  if (!L2 || !O.WarpsInFlight) {
    P.LeftOut.push_back(std::string(Title) +
                        (O.WarpsInFlight
                             ? ": the GPU data has no L2 latency for " + Gpu.Id
                             : ": no launch to size the warps in flight"));
    return;
  }
  double FromDram = 0;
  if (L2Bytes && *L2Bytes > 0 && M.DramEstimate)
    FromDram = std::min(1.0, *M.DramEstimate / *L2Bytes);
  // Without DRAM's latency, L2's alone: DRAM is the slower, so the bound
  // stays a bound.
  RoundCycles = *L2 + FromDram * (Dram ? *Dram - *L2 : 0.0);
  std::string Detail =
      formatCount(double(O.WarpsInFlight)) + " warps in flight (" +
      std::to_string(O.WarpsPerSM) + " of " + std::to_string(O.MaxWarpsPerSM) +
      " per SM, limited by " + O.Limiter +
      (O.Registers ? ", " + std::to_string(O.Registers) + " registers a thread"
                   : ", registers unknown: " + O.RegistersWhy) +
      "), " + formatCount(RoundCycles) + " cycles a round (L2 " +
      formatCount(*L2) + ", DRAM " +
      (Dram ? formatCount(*Dram) : std::string("unknown, taken as L2's")) +
      ", " + formatPercent(FromDram) + " of the bytes from DRAM)";
  add("latency", Title, "warp load rounds", Per::None, Rounds,
      double(O.WarpsInFlight) * Gpu.Pipes.Clock / RoundCycles, Detail);
}

// The SM-local resources (pipes, issue, L1) take the launch's work at the
// whole GPU's rate only if every SM gets the same share of blocks. Blocks
// of equal work cannot be spread more evenly than ceil(blocks / SMs) on
// the busiest SM, and the launch lasts as long as that SM works: a grid of
// 1024 blocks on 132 SMs runs 8 on some, 7.76 on average. DRAM and L2
// serve every SM, and the Little's-law bound already counts only the warps
// a small grid has in flight, so those stand as they are.
void Predictor::busiestSM() {
  const Occupancy &O = KC.Occ;
  double Factor = O.busiestSMFactor(Gpu.SMs);
  if (Factor <= 1.0)
    return;
  std::string Note =
      "the busiest SM runs " + std::to_string(O.BusiestSMBlocks) + " of the " +
      std::to_string(O.Blocks) + " blocks (" +
      formatCount(double(O.Blocks) / Gpu.SMs) + " an SM on average)";
  for (ResourceTime &R : P.Resources) {
    if (R.Name == "dram" || R.Name == "l2" || R.Name == "latency")
      continue;
    R.Throughput /= Factor;
    R.Seconds *= Factor;
    R.Detail += (R.Detail.empty() ? "" : "; ") + Note;
  }
}

// A block that loads a tile, waits at a barrier for it and then computes
// on it cannot overlap those loads with its own work: no warp of it passes
// the barrier before the last load arrives. Only the other blocks resident
// on its SM fill the wait, so each block runs its rounds and its own work
// one after the other, the work at best at the whole SM's rate: the kernel
// takes at least the barrier rounds' latency plus the throughput bound
// divided by the blocks resident per SM (fewer than occupancy allows when
// the grid does not fill the GPU).
void Predictor::barrierLatency() {
  double Rounds = inst(counter::InstBarrierRounds) / WarpSize;
  const Occupancy &O = KC.Occ;
  if (Rounds <= 0 || RoundCycles <= 0 || !O.BlocksPerSM)
    return;
  const ResourceTime *Busiest = nullptr;
  for (const ResourceTime &R : P.Resources)
    if (R.Name != "latency" && (!Busiest || R.Seconds > Busiest->Seconds))
      Busiest = &R;
  if (!Busiest)
    return;
  double Wait =
      Rounds * RoundCycles / (double(O.WarpsInFlight) * Gpu.Pipes.Clock);
  uint64_t WarpsPerBlock = O.WarpsPerSM / O.BlocksPerSM;
  uint64_t InFlight = WarpsPerBlock ? O.WarpsInFlight / WarpsPerBlock : 0;
  uint64_t SMs = std::max(Gpu.SMs, 1u);
  unsigned Resident = unsigned(
      std::clamp<uint64_t>((InFlight + SMs - 1) / SMs, 1, O.BlocksPerSM));
  double Share = Busiest->Seconds / Resident;
  std::string Blocks =
      std::to_string(Resident) + (Resident == 1 ? " block" : " blocks");
  std::string Detail =
      formatSeconds(Wait) + " of rounds a barrier waits for (" +
      formatCount(RoundCycles) +
      " cycles each), then the block's own work: " + Busiest->Title + " " +
      formatSeconds(Busiest->Seconds) + " / " + Blocks +
      " per SM (limited by " + O.Limiter +
      (O.Registers ? ", " + std::to_string(O.Registers) + " registers a thread"
                   : std::string()) +
      ")";
  add("barrier_latency", "memory latency at barriers (" + Blocks + " per SM)",
      "warp load rounds", Per::None, Rounds, Rounds / (Wait + Share), Detail);
}

Prediction Predictor::run() {
  if (M.Bound == "unknown" || (!M.Seconds && !M.SecondsUpper)) {
    P.Why = M.LowerBound     ? "counts with unknowns: " + M.LowerBoundWhy
            : M.Note.empty() ? "the counts are not known"
                             : M.Note;
    return P;
  }
  dram();
  l2();
  l1();
  instructions();
  flops();
  latency();
  busiestSM();
  barrierLatency();
  std::stable_sort(P.Resources.begin(), P.Resources.end(),
                   [](const ResourceTime &A, const ResourceTime &B) {
                     return A.Seconds > B.Seconds;
                   });
  for (ResourceTime &R : P.Resources) {
    Per Yard = Yardsticks[R.Name];
    if (WarpFmas > 0 && !Tensor && Yard != Per::None)
      R.PerFma = R.Work / (Yard == Per::Warp ? WarpFmas : WarpFmas * WarpSize);
  }
  // The algorithm's ceiling holds for any implementation.
  double Floor = M.Seconds ? *M.Seconds : 0.0;
  if (P.Resources.empty() || P.Resources.front().Seconds < Floor) {
    P.Seconds = Floor;
    P.Limiter = "speed_of_light";
  } else {
    P.Seconds = P.Resources.front().Seconds;
    P.Limiter = P.Resources.front().Name;
  }
  return P;
}

Prediction roofline::predictTime(const KernelCounts &KC,
                                 const std::vector<AccessInfo> &Accesses,
                                 const RooflineMetrics &M, const GpuSpec &Gpu) {
  return Predictor(KC, Accesses, M, Gpu).run();
}

std::string roofline::predictionLimiter(const Prediction &P) {
  const ResourceTime *R = P.limiter();
  if (!R || P.Limiter != R->Name)
    return "the speed of light";
  if (R->PerFma <= 0)
    return R->Title;
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "%.3g", R->PerFma);
  return R->Title + " (" + Buf + " per FMA)";
}
