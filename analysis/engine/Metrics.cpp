//===- Metrics.cpp --------------------------------------------------------===//

#include "Metrics.h"
#include "Counters.h"

using namespace roofline;

static std::optional<double> total(const KernelCounts &KC,
                                   const std::string &Name) {
  auto It = KC.Totals.find(Name);
  if (It == KC.Totals.end())
    return 0.0;
  if (!It->second)
    return std::nullopt;
  return It->second->toDouble();
}

std::string roofline::unitText(const std::string &Precision, ComputeUnit Unit) {
  return Precision +
         (Unit == ComputeUnit::TensorCore ? " tensor cores" : " CUDA cores");
}

void roofline::dominantUnit(const KernelCounts &KC, std::string &Precision,
                            ComputeUnit &Unit) {
  // The precision doing the most FLOPs decides the unit and peak; tensor
  // FLOPs ("flops.tensor_<prec>") select the tensor cores.
  double Best = -1;
  for (auto &KV : KC.PerThread) {
    if (KV.first.rfind(counter::FlopsPrefix, 0) != 0)
      continue;
    double V = 0;
    auto T = KC.Totals.find(KV.first);
    if (T != KC.Totals.end() && T->second)
      V = T->second->toDouble();
    else if (KV.second.Value)
      V = KV.second.Value->toDouble();
    if (V > Best) {
      Best = V;
      std::string P = KV.first.substr(6);
      if (P.rfind("tensor_", 0) == 0) {
        Unit = ComputeUnit::TensorCore;
        Precision = P.substr(7);
      } else {
        Unit = ComputeUnit::CudaCore;
        Precision = P;
      }
    }
  }
}

/// The peak a "flops.<prec>" or "flops.tensor_<prec>" counter runs at;
/// Prec is set to the precision's name.
static std::optional<double> peakOf(const std::string &Counter,
                                    const GpuSpec &Gpu, std::string &Prec) {
  Prec = Counter.substr(6);
  ComputeUnit U = ComputeUnit::CudaCore;
  if (Prec.rfind("tensor_", 0) == 0) {
    U = ComputeUnit::TensorCore;
    Prec = Prec.substr(7);
  }
  return Gpu.peak(U, Prec);
}

std::optional<double> roofline::computeSeconds(const KernelCounts &KC,
                                               const GpuSpec &Gpu,
                                               std::string &Note) {
  // Every precision's FLOPs at its own peak; they share the issue slots.
  double T = 0;
  bool AllPeaks = true;
  for (auto &KV : KC.Totals) {
    if (KV.first.rfind(counter::FlopsPrefix, 0) != 0 || !KV.second)
      continue;
    std::string P;
    auto Pk = peakOf(KV.first, Gpu, P);
    if (!Pk) {
      AllPeaks = false;
      Note = "no " + P + " peak for " + Gpu.Id;
      continue;
    }
    T += KV.second->toDouble() / *Pk;
  }
  if (!AllPeaks)
    return std::nullopt;
  return T;
}

/// Unknown work can only add time: the FLOPs that were counted, at their
/// peaks, and the compulsory bytes of the accesses that were, still bound
/// the kernel from below (a precision without a peak is left out, which
/// keeps it a bound).
static void knownWorkBound(const KernelCounts &KC, const GpuSpec &Gpu,
                           RooflineMetrics &R) {
  double Compute = 0;
  for (auto &KV : KC.KnownTotals) {
    if (KV.first.rfind(counter::FlopsPrefix, 0) != 0)
      continue;
    std::string P;
    if (auto Pk = peakOf(KV.first, Gpu, P))
      Compute += KV.second.toDouble() / *Pk;
  }
  double Memory = KC.Compulsory.Lower
                      ? double(*KC.Compulsory.Lower) / Gpu.DramBandwidth
                      : 0.0;
  if (std::max(Compute, Memory) <= 0)
    return;
  R.LowerBound = std::max(Compute, Memory);
  R.LowerBoundWhy = !R.Note.empty()       ? R.Note
                    : KC.Unknowns.empty() ? "uncounted work"
                                          : KC.Unknowns.front().Reason;
}

RooflineMetrics roofline::computeMetrics(const KernelCounts &KC,
                                         const GpuSpec &Gpu, bool HaveLaunch) {
  RooflineMetrics R;
  dominantUnit(KC, R.Precision, R.Unit);
  R.Peak = Gpu.peak(R.Unit, R.Precision);
  R.Ridge = Gpu.ridge(R.Unit, R.Precision);
  if (!HaveLaunch) {
    R.Bound = "unknown";
    R.Note = "the speed of light needs problem sizes: give --param values "
             "for the launcher, --launch, or an annotation";
    return R;
  }
  R.Flops = total(KC, counter::FlopsTotal);
  if (KC.Upper)
    R.DramUpper = double(*KC.Upper);
  auto Ld = total(KC, counter::GlobalLoadBytes),
       St = total(KC, counter::GlobalStoreBytes);
  auto At = total(KC, counter::AtomicBytes);
  if (R.Flops && Ld && St && At && *Ld + *St + *At > 0)
    R.AIRequested = *R.Flops / (*Ld + *St + *At);
  if (KC.Compulsory.Lower)
    R.DramLower = double(*KC.Compulsory.Lower);
  if (R.Flops && R.DramUpper && *R.DramUpper > 0)
    R.AILower = *R.Flops / *R.DramUpper;
  if (R.Flops && R.DramLower && *R.DramLower > 0)
    R.AIUpper = *R.Flops / *R.DramLower;
  if (R.Flops)
    R.ComputeSeconds = computeSeconds(KC, Gpu, R.Note);
  if (!R.ComputeSeconds || !R.DramUpper) {
    R.Bound = "unknown";
    knownWorkBound(KC, Gpu, R);
    if (R.Note.empty())
      R.Note = R.LowerBound ? "counts with unknowns: the speed of light is a "
                              "lower bound from the known work"
                            : "counts with unknowns have no speed of light";
    return R;
  }
  if (KC.Estimate.Bytes) {
    R.DramEstimate = double(*KC.Estimate.Bytes);
    if (*R.DramEstimate > 0)
      R.AIEstimate = *R.Flops / *R.DramEstimate;
    R.SecondsEstimate =
        std::max(*R.ComputeSeconds, *R.DramEstimate / Gpu.DramBandwidth);
  }
  double MemUpper = *R.DramUpper / Gpu.DramBandwidth;
  R.SecondsUpper = std::max(*R.ComputeSeconds, MemUpper);
  double MemLower = R.DramLower ? *R.DramLower / Gpu.DramBandwidth : 0.0;
  if (R.DramLower)
    R.Seconds = std::max(*R.ComputeSeconds, MemLower);
  double Classify = R.Seconds ? *R.Seconds : *R.SecondsUpper;
  double MemClassify = R.DramLower ? MemLower : MemUpper;
  if (Classify < OverheadSeconds)
    R.Bound = "overhead";
  else
    R.Bound = MemClassify >= *R.ComputeSeconds ? "memory" : "compute";
  return R;
}
