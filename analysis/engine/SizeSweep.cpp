//===- SizeSweep.cpp ------------------------------------------------------===//

#include "SizeSweep.h"
#include "AccessAnalysis.h"
#include "Counters.h"
#include "Limits.h"
#include "Metrics.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdio>

using namespace roofline;

/// The work the count of a size between two powers of two may take, as a
/// number of limit checks (about 0.1 s here), so that the sweep, and so
/// the note, is the same on any machine under any load; the time limit only
/// stops a walk that checks too rarely.
constexpr uint64_t RefineChecks = 4;
constexpr double RefineBackstopSeconds = 2;

static std::string number(double V) {
  char Buf[32];
  snprintf(Buf, sizeof Buf, "%.3g", V);
  return Buf;
}

size_t SizeSweep::from() const {
  size_t I = Points.size();
  while (I > 1 && Points[I - 2].ComputeBound == Points.back().ComputeBound)
    --I;
  return I ? I - 1 : 0;
}

SizeSweep::Kind SizeSweep::kind() const {
  bool Compute = !Points.empty() && Points.back().ComputeBound;
  if (from() == 0)
    return Compute ? Kind::Compute : Kind::Memory;
  return Compute ? Kind::ComputeFrom : Kind::MemoryFrom;
}

double SizeSweep::minIntensity() const {
  double Lo = 0;
  bool First = true;
  for (size_t I = from(); I < Points.size(); ++I)
    if (Points[I].Flops > 0 && (First || Points[I].intensity() < Lo)) {
      Lo = Points[I].intensity();
      First = false;
    }
  return Lo;
}

double SizeSweep::maxIntensity() const {
  double Hi = 0;
  for (size_t I = from(); I < Points.size(); ++I)
    Hi = std::max(Hi, Points[I].intensity());
  return Hi;
}

std::string SizeSweep::names() const {
  if (Names.empty())
    return "S"; // The grid, in threads: the launch assumption says so.
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "" : " = ") + N;
  return S;
}

std::string SizeSweep::range() const {
  std::string S = names() + " = ";
  if (Points.empty())
    return S;
  S += std::to_string(Points.front().Size);
  if (Points.size() > 1)
    S += " .. " + std::to_string(Points.back().Size);
  return S;
}

std::string SizeSweep::verdict(const GpuSpec &Gpu) const {
  std::string Unit = unitText(Precision, this->Unit);
  std::string Ridge = this->Ridge
                          ? "ridge " + number(*this->Ridge) + " FLOP/B for " +
                                Unit + " on " + Gpu.Name
                          : "no ridge for " + Unit + " on " + Gpu.Name;
  double Lo = minIntensity(), Hi = maxIntensity();
  std::string Intensity =
      Hi == 0 ? std::string("no FLOPs")
      : Hi - Lo <= 0.01 * Hi
          ? "intensity " + number(Hi) + " FLOP/B"
          : "intensity " + number(Lo) + " to " + number(Hi) + " FLOP/B";
  std::string S;
  Kind K = kind();
  const char *Bound = Points.back().ComputeBound ? "compute" : "memory";
  if (K == Kind::Memory || K == Kind::Compute) {
    S = std::string(Bound) + "-bound at every size swept (" + range() +
        "): " + Intensity;
  } else {
    // The first size of the verdict, and the last one before it.
    const Point &At = Points[from()], &Below = Points[from() - 1];
    S = std::string(Bound) + "-bound from " + names() + " = " +
        std::to_string(At.Size) + " on, " +
        (At.ComputeBound ? "memory" : "compute") + "-bound at " +
        std::to_string(Below.Size) + " (swept " + range() + "): intensity " +
        number(Below.intensity()) + " FLOP/B at " + std::to_string(Below.Size) +
        ", " + number(At.intensity()) + " at " + std::to_string(At.Size);
    const Point &Last = Points.back();
    if (&Last != &At)
      S += ", " + number(Last.intensity()) + " at " + std::to_string(Last.Size);
  }
  if (Hi > 0)
    S += "; " + Ridge;
  if (!LaunchAssumption.empty())
    S += "; " + LaunchAssumption;
  return S;
}

namespace {

/// One sample's launch and values.
struct Sample {
  int64_t Size;
  KernelLaunch Launch;
  std::map<std::string, int64_t> Params;
};

/// The state of one sweepRoofline: the samples, then the points counted.
class SweepBuilder {
public:
  SweepBuilder(const KernelModel &M, const KernelDecl &Decl,
               const KernelLaunch &LI,
               const std::map<std::string, int64_t> &Params, const GpuSpec &Gpu,
               std::string &WhyNot)
      : M(M), Decl(Decl), LI(LI), Params(Params), Gpu(Gpu), WhyNot(WhyNot) {}

  std::optional<SizeSweep> run();

private:
  std::vector<std::string>
  missingParams(const std::map<std::string, int64_t> &Given) const;
  void add(int64_t Size, const Dim3 &Grid, const Dim3 &Block, int64_t Shared,
           std::map<std::string, int64_t> P);
  bool samplesOfLaunch();
  void samplesOfSampledLaunch();
  bool samplesWithoutLaunch();
  bool count(const Sample &S);
  void refine();

  const KernelModel &M;
  const KernelDecl &Decl;
  const KernelLaunch &LI;
  const std::map<std::string, int64_t> &Params;
  const GpuSpec &Gpu;
  std::string &WhyNot;
  SizeSweep Sweep;
  std::vector<Sample> Samples;
  std::map<int64_t, SizeSweep::Point> Done;
};

} // namespace

// The kernel's integer parameters its counts use and nothing gives.
std::vector<std::string>
SweepBuilder::missingParams(const std::map<std::string, int64_t> &Given) const {
  std::vector<std::string> Out;
  for (const std::string &P : Decl.ParamNames)
    if (Decl.IntParamTypes.count(P) && !Given.count(P) && mentionsSymbol(M, P))
      Out.push_back(P);
  return Out;
}

// A sample of Size: the missing parameters set to it.
void SweepBuilder::add(int64_t Size, const Dim3 &Grid, const Dim3 &Block,
                       int64_t Shared, std::map<std::string, int64_t> P) {
  for (const std::string &N : missingParams(P))
    P[N] = Size;
  Sample S{Size, LI, std::move(P)};
  S.Launch.Grid = Grid;
  S.Launch.Block = Block;
  S.Launch.SharedBytes = Shared;
  Samples.push_back(std::move(S));
}

// The launch as given, at every sweep size of the missing parameters;
// false if none is missing.
bool SweepBuilder::samplesOfLaunch() {
  Sweep.Names = missingParams(Params);
  if (Sweep.Names.empty()) {
    WhyNot = "no size is missing";
    return false;
  }
  for (int64_t Size : rooflineSweepSizes())
    add(Size, *LI.Grid, *LI.Block, LI.SharedBytes, Params);
  return true;
}

// A launch that depends on sizes: the samples it was evaluated at.
void SweepBuilder::samplesOfSampledLaunch() {
  Sweep.Names = LI.SampledNames;
  std::map<std::string, int64_t> First = Params;
  for (auto &KV : LI.Samples.front().Args)
    First[KV.first] = KV.second;
  for (const std::string &N : missingParams(First))
    if (!llvm::is_contained(Sweep.Names, N))
      Sweep.Names.push_back(N);
  for (const SampledLaunch &SL : LI.Samples) {
    std::map<std::string, int64_t> P = Params;
    for (auto &KV : SL.Args)
      P[KV.first] = KV.second;
    add(SL.Size, SL.Grid, SL.Block, SL.SharedBytes, std::move(P));
  }
}

// No launch to follow: the block it would have (as the access findings
// assume it), and a grid that covers the size on each axis the kernel
// indexes blocks by; false if there is no size to sweep.
bool SweepBuilder::samplesWithoutLaunch() {
  AccessLaunch AL = accessLaunch(M, LI, Decl.MaxThreadsPerBlock);
  Dim3 Block = *AL.Launch.Block;
  bool Axis[3];
  std::string Axes;
  for (int D = 0; D < 3; ++D) {
    Axis[D] = mentionsSymbol(M, std::string("blockIdx.") + "xyz"[D]);
    if (Axis[D])
      Axes += std::string(Axes.empty() ? "" : ", ") + "xyz"[D];
  }
  Sweep.Names = missingParams(Params);
  if (Sweep.Names.empty() && Axes.empty()) {
    WhyNot = "no size to sweep";
    return false;
  }
  std::string Grid =
      Axes.empty() ? "one block"
                   : "ceil(" + Sweep.names() + " / blockDim) blocks in " + Axes;
  Sweep.LaunchAssumption =
      "no launch: grid of " + Grid +
      (AL.BlockAssumption.empty() ? std::string() : ", " + AL.BlockAssumption);
  for (int64_t Size : rooflineSweepSizes()) {
    Dim3 G;
    for (int D = 0; D < 3; ++D)
      if (Axis[D])
        G.V[D] = std::min<int64_t>((Size + Block.V[D] - 1) / Block.V[D],
                                   D ? 65535 : INT32_MAX);
    add(Size, G, Block, LI.SharedBytes, Params);
  }
  return true;
}

// The roofline point of sample S, into Done; false (WhyNot says why) when
// its counts or its compute time are unknown.
bool SweepBuilder::count(const Sample &S) {
  KernelCounts KC = computeCounts(M, S.Launch, S.Params);
  auto Flops = KC.Totals.find(counter::FlopsTotal);
  if (Flops == KC.Totals.end() || !Flops->second || !KC.Compulsory.Lower) {
    std::string Why = KC.Unknowns.empty()
                          ? std::string("the counts are unknown")
                          : KC.Unknowns.front().Reason;
    // Unknown at the first size: whatever the sizes.
    WhyNot = Done.empty() ? Why : "at " + std::to_string(S.Size) + ", " + Why;
    return false;
  }
  std::string Note;
  std::optional<double> Compute = computeSeconds(KC, Gpu, Note);
  if (!Compute) {
    WhyNot = Note;
    return false;
  }
  SizeSweep::Point P;
  P.Size = S.Size;
  P.Flops = Flops->second->toDouble();
  P.Bytes = double(*KC.Compulsory.Lower);
  P.ComputeBound = *Compute > P.Bytes / Gpu.DramBandwidth;
  if (Done.empty() || S.Size > Done.rbegin()->first) {
    dominantUnit(KC, Sweep.Precision, Sweep.Unit);
    Sweep.Ridge = Gpu.ridge(Sweep.Unit, Sweep.Precision);
  }
  Done[S.Size] = P;
  return true;
}

// Counts the samples between the two powers of two where the largest
// sizes' verdict starts. Such a size may cut a kernel's tiles in pieces,
// which can cost many times the whole power-of-two pass to count: the
// refinement gets a small budget of work, and without it the verdict stands
// at the powers of two.
void SweepBuilder::refine() {
  auto Largest = Done.empty() ? nullptr : &Done.rbegin()->second;
  const SizeSweep::Point *Before = nullptr, *From = nullptr;
  for (auto It = Done.rbegin(); It != Done.rend(); ++It) {
    if (It->second.ComputeBound != Largest->ComputeBound) {
      Before = &It->second;
      break;
    }
    From = &It->second;
  }
  if (Before && From)
    for (const Sample &S : Samples)
      if (S.Size > Before->Size && S.Size < From->Size) {
        std::string Kept = WhyNot;
        KernelLimits Budget(RefineBackstopSeconds, /*MemoryMiB=*/0,
                            RefineChecks);
        if (!count(S))
          WhyNot = Kept;
      }
}

std::optional<SizeSweep> SweepBuilder::run() {
  bool HaveSamples = true;
  if (LI.known())
    HaveSamples = samplesOfLaunch();
  else if (!LI.Samples.empty())
    samplesOfSampledLaunch();
  else
    HaveSamples = samplesWithoutLaunch();
  if (!HaveSamples)
    return std::nullopt;
  // The powers of two first; the sample between two of them only where
  // the verdict changes there (the counts of a large grid are most of the
  // sweep's time).
  for (const Sample &S : Samples)
    if ((S.Size & (S.Size - 1)) == 0 && !count(S))
      return std::nullopt;
  refine();
  for (auto &KV : Done)
    Sweep.Points.push_back(KV.second);
  if (Sweep.Points.empty()) {
    WhyNot = "no sample size gives a valid launch";
    return std::nullopt;
  }
  return Sweep;
}

std::optional<SizeSweep>
roofline::sweepRoofline(const KernelModel &M, const KernelDecl &Decl,
                        const KernelLaunch &LI,
                        const std::map<std::string, int64_t> &Params,
                        const GpuSpec &Gpu, std::string &WhyNot) {
  return SweepBuilder(M, Decl, LI, Params, Gpu, WhyNot).run();
}
