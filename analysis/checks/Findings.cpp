//===- Findings.cpp -------------------------------------------------------===//

#include "Findings.h"
#include "Format.h"
#include "FindingCost.h"
#include "SizeSweep.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace roofline;

static std::string percent(double F) {
  char Buf[32];
  double P = F * 100;
  snprintf(Buf, sizeof Buf, P == std::floor(P) ? "%.0f%%" : "%.1f%%", P);
  return Buf;
}

static std::string what(const AccessInfo &A) {
  std::string S = A.Space == MemSpace::Shared ? "shared " : "global ";
  S += A.kind();
  S += " of '" + (A.Expr.empty() ? A.Base : A.Expr) + "'";
  return S;
}

// What a finding about A assumed, for its message: the sizes it holds for
// when they were not given, and the block shape when no launch gave one.
static std::string assumptions(const AccessInfo &A) {
  std::string S;
  if (!A.ValidFor.empty())
    S = "for " + A.ValidFor;
  if (!A.BlockAssumption.empty())
    S += (S.empty() ? "" : "; ") + A.BlockAssumption;
  return S.empty() ? S : " (" + S + ")";
}

// A request's sectors, and the share of their bytes used: a range when
// they vary with sizes that were not given (the most sectors, the least
// used).
static std::string sectorsText(const AccessInfo &A) {
  std::string S = std::to_string(A.Sectors->Sectors);
  if (A.MaxSectors)
    S += " to " + std::to_string(A.MaxSectors);
  return S;
}
static std::string usedText(const AccessInfo &A) {
  std::string S = percent(A.Sectors->efficiency());
  if (A.MaxSectors && A.Sectors->BytesUsed)
    S = percent(double(A.Sectors->BytesUsed) / (A.MaxSectors * 32.0)) +
        " to " + S;
  return S;
}

// A finding of check Check at access A (its note defaults to the same place).
static Finding at(const char *Check, const AccessInfo &A) {
  Finding F;
  F.Check = Check;
  F.Loc = A.Loc;
  return F;
}

static void uncoalesced(const AccessInfo &A, const FindingOptions &Opts,
                        std::vector<Finding> &Out) {
  if (!A.Sectors)
    return;
  unsigned Ideal = A.idealSectors(), Got = A.Sectors->Sectors;
  if (Got <= Ideal || 1.0 - double(Ideal) / Got <= Opts.MinEfficiencyLoss)
    return;
  // Each thread's run of consecutive elements over a short loop reaches the
  // next lane's: over the loop every fetched byte is used, and the fix is
  // the vector access roofline-unvectorized-access names, not another
  // thread-to-data mapping.
  if (A.VectorBytes && A.Class == AccessClass::Strided &&
      A.StrideElements > 0 &&
      uint64_t(A.StrideElements) * A.Width <= A.RunBytes)
    return;
  Finding F = at("roofline-uncoalesced-access", A);
  F.Message = what(A) + " is " +
              (A.Class == AccessClass::Strided
                   ? "strided across the warp (" +
                         (A.StrideFormula.empty()
                              ? std::to_string(A.StrideElements)
                              : A.StrideFormula) +
                         " elements between lanes)"
                   : std::string("scattered across the warp")) +
              ": " + sectorsText(A) + " sectors per request where " +
              std::to_string(Ideal) + " would do, " + usedText(A) +
              " of fetched bytes used" + assumptions(A);
  FindingNote N;
  N.Loc = A.Loc;
  if (!A.LaneCoefficient.empty() && A.LaneCoefficient != "0")
    N.Message = "the address moves " + A.LaneCoefficient +
                " bytes per threadIdx.x; make threadIdx.x index the "
                "contiguous dimension, or stage the data through shared "
                "memory and read it there";
  else
    N.Message = "consecutive lanes do not read consecutive elements; make "
                "threadIdx.x index the contiguous dimension, or stage the "
                "data through shared memory";
  F.Notes.push_back(N);
  Out.push_back(F);
}

// A request recomputed with a fix: "no conflict, 1 wavefront per request"
// or "a 4-way conflict, 4 wavefronts per request".
static std::string bankResult(const BankReport &B) {
  std::string W = std::to_string(B.Wavefronts) +
                  (B.Wavefronts == 1 ? " wavefront" : " wavefronts") +
                  " per request";
  if (B.Ways <= 1)
    return "no conflict, " + W;
  std::string Ways = std::to_string(B.Ways);
  bool An = Ways[0] == '8' || Ways == "11" || Ways == "18";
  return (An ? "an " : "a ") + Ways + "-way conflict, " + W;
}

// "2nd", "3rd", "8th", "21st".
static std::string ordinal(int64_t N) {
  const char *Suffix = "th";
  if (N % 100 < 11 || N % 100 > 13)
    Suffix = N % 10 == 1   ? "st"
             : N % 10 == 2 ? "nd"
             : N % 10 == 3 ? "rd"
                           : "th";
  return std::to_string(N) + Suffix;
}

// The array's extents with the row (innermost) length Row: "[32][33]".
static std::string extents(const SharedLayout &L, uint64_t Row) {
  std::string S;
  for (size_t I = 0; I + 1 < L.Dims.size(); ++I)
    S += "[" + std::to_string(L.Dims[I]) + "]";
  return S + "[" + std::to_string(Row) + "]";
}

// A conflict between rows of a 2-D array: the padding (or failing that the
// swizzle) that separates them, with the request it gives.
static std::string acrossRowsAdvice(const AccessInfo &A,
                                    const BankAdvice &Adv) {
  const SharedLayout &L = Adv.Layout;
  const BankReport &B = *A.Banks;
  std::string Name = "'" + A.Base + "'";
  std::string S = ", each in another row of " + Name;
  uint64_t Row = L.Dims.back() + Adv.PadElements;
  std::string Pad = " each row of " + Name + " to " + std::to_string(Row) +
                    " elements (" + extents(L, Row) + ")";
  if (Adv.PadElements && Adv.Padded.Wavefronts <= B.MinWavefronts)
    return S + "; pad" + Pad + ": " + bankResult(Adv.Padded);
  if (Adv.PadElements)
    S += "; padding" + Pad + " leaves " + bankResult(Adv.Padded) +
         " (no padding that keeps its accesses aligned does better)";
  else
    S += "; no padding of the rows lowers it";
  if (Adv.SwizzleModulo) {
    uint64_t Rows = L.Dims[L.Dims.size() - 2];
    std::string Key = Rows && Rows <= Adv.SwizzleModulo
                          ? std::string("r")
                          : "(r % " + std::to_string(Adv.SwizzleModulo) + ")";
    if (Adv.SwizzleScale > 1)
      Key = "(" + Key + " * " + std::to_string(Adv.SwizzleScale) + ")";
    S += "; swizzling the column with the row instead, element [r][c] at "
         "[r][c ^ " + Key + "] in every access of " + Name + ", gives " +
         bankResult(Adv.Swizzled);
    if (Adv.Swizzled.Wavefronts <= B.MinWavefronts)
      return S;
  }
  return S + "; removing it takes another mapping of threads to elements";
}

// A conflict between words of one row (or of a 1-D array): how far apart
// the lanes are there, and the access that would not collide.
static std::string withinRowAdvice(const AccessInfo &A,
                                   const BankAdvice &Adv) {
  const SharedLayout &L = Adv.Layout;
  bool Rows = L.rowBytes() != 0;
  std::string Name = "'" + A.Base + "'";
  std::string S;
  if (!Rows) {
    S = " of " + Name +
        (L.Dims.size() == 1 ? std::string(" (a 1-D array)") : std::string());
  } else if (Adv.CollidingInOneRow) {
    S = " in one row of " + Name;
  } else {
    S = "; lanes " + std::to_string(Adv.LaneA) + " and " +
        std::to_string(Adv.LaneB) + " access one row of " + Name;
  }
  int64_t Stride = Adv.LaneStride < 0 ? -Adv.LaneStride : Adv.LaneStride;
  if (Stride && Stride % BankBytes == 0)
    S += ": consecutive lanes access every " + ordinal(Stride / BankBytes) +
         " word of it";
  else
    S += ": lanes " + std::to_string(Adv.LaneA) + " and " +
         std::to_string(Adv.LaneB) + " access words " +
         std::to_string(Adv.OffsetA / BankBytes) + " and " +
         std::to_string(Adv.OffsetB / BankBytes) + " of it, " +
         std::to_string((Adv.OffsetB - Adv.OffsetA) / BankBytes) +
         " words apart";
  if (Rows)
    S += ", so padding the rows cannot separate them";
  bool OneElement = !L.ElementBytes || L.ElementBytes == A.Width;
  std::string Consecutive =
      "have consecutive lanes access consecutive " +
      (OneElement ? std::string("elements")
                  : std::to_string(A.Width) + "-byte pieces") +
      ": " + bankResult(Adv.Consecutive);
  if (!Adv.VectorBytes)
    return S + "; " + Consecutive;
  unsigned N = L.ElementBytes ? Adv.VectorBytes / L.ElementBytes
                              : Adv.VectorBytes;
  std::string Unit = L.ElementBytes ? "elements" : "bytes";
  S += "; read each thread's " + std::to_string(N) + " consecutive " + Unit +
       " as one " + std::to_string(Adv.VectorBytes) + "-byte vector access";
  if (Adv.VectorRowElements)
    S += ", with rows of " + std::to_string(Adv.VectorRowElements) +
         " elements (" + extents(L, Adv.VectorRowElements) +
         ") to keep it aligned";
  return S + ": " + bankResult(Adv.Vectorized) + " for " +
         (N == 2 ? "both " : "all " + std::to_string(N) + " ") + Unit +
         "; or " + Consecutive;
}

// The cause of A's bank conflict and its fix, for the note: padding only
// where the colliding words are in different rows of a 2-D array, as
// recomputing the request with it confirms.
static std::string bankAdvice(const AccessInfo &A, const BankAdvice &Adv) {
  if (Adv.acrossRows())
    return acrossRowsAdvice(A, Adv);
  return withinRowAdvice(A, Adv);
}

static void bankConflict(const AccessInfo &A, const FindingOptions &Opts,
                         std::vector<Finding> &Out) {
  if (!A.Banks || A.Banks->Ways < Opts.MinConflictWays)
    return;
  const BankReport &B = *A.Banks;
  Finding F = at("roofline-bank-conflict", A);
  F.Message = what(A) + " has a " + std::to_string(B.Ways) +
              "-way bank conflict: " + std::to_string(B.Wavefronts) +
              " wavefronts per request where " +
              std::to_string(B.MinWavefronts) + " would do" + assumptions(A);
  FindingNote N;
  N.Loc = A.Loc;
  std::string Lanes;
  for (size_t I = 0; I < B.CollidingLanes.size(); ++I) {
    if (I == 4 && B.CollidingLanes.size() > 5) {
      Lanes += ", ..., " + std::to_string(B.CollidingLanes.back());
      break;
    }
    Lanes += (I ? ", " : "") + std::to_string(B.CollidingLanes[I]);
  }
  N.Message = "lanes " + Lanes + " read different words of bank " +
              std::to_string(B.Bank);
  N.Message += A.BankFix ? bankAdvice(A, *A.BankFix)
                         : "; have the lanes of a warp access words in "
                           "different banks";
  F.Notes.push_back(N);
  Out.push_back(F);
}

static void unvectorized(const AccessInfo &A, std::vector<Finding> &Out) {
  if (!A.VectorBytes || !A.Width)
    return;
  unsigned N = A.VectorBytes / A.Width;
  Finding F = at("roofline-unvectorized-access", A);
  F.Message = what(A) + " moves " + std::to_string(N) + " consecutive " +
              std::to_string(A.Width) + "-byte elements per thread one at a "
              "time; one " + std::to_string(A.VectorBytes) +
              "-byte access would do (" + std::to_string(N) +
              "x fewer requests)" + assumptions(A);
  FindingNote Loop;
  Loop.Loc = A.LoopLoc;
  Loop.Message = "consecutive iterations of this loop access consecutive "
                 "elements; every thread's first element is " +
                 std::to_string(A.VectorBytes) + "-byte aligned, so they can "
                 "be accessed as one vector (reinterpret_cast to " +
                 (A.VectorBytes == 16 ? std::string("float4/int4/uint4")
                                      : std::string("float2/int2/uint2")) +
                 ")";
  F.Notes.push_back(Loop);
  Out.push_back(F);
}

static std::string times(double X) {
  char Buf[32];
  snprintf(Buf, sizeof Buf, X == std::floor(X) ? "%.0f" : "%.1f", X);
  return Buf;
}

// A time against the speed of light: "40% of", "3.5x".
static std::string share(double F) {
  return F < 1 ? percent(F) + " of" : times(F) + "x";
}

// roofline-global-reuse: warps of a block re-read a load's elements, and
// the re-reads L1 cannot keep cost enough L2 time to be worth a tile.
static void globalReuse(const AccessInfo &A, const KernelFacts &K,
                        const FindingOptions &Opts, std::vector<Finding> &Out) {
  if (!A.Tile || A.StagedInShared)
    return;
  const TileSaving &T = *A.Tile;
  if (T.Scalar || T.BetweenWarps < Opts.MinReuse || !T.L2Bytes ||
      T.Seconds <= 0)
    return;
  std::optional<double> Light =
      K.Metrics ? K.Metrics->Seconds : std::optional<double>();
  if (Light && T.Seconds < Opts.MinReuseCost * *Light)
    return;
  Finding F = at("roofline-global-reuse", A);
  F.Seconds = T.Seconds;
  F.Message = what(A) + " is read " + times(T.BetweenWarps) +
              " times by different warps of a block";
  if (auto R = A.reuseFactor())
    F.Message += " (" + times(*R) + " times over the grid)";
  F.Message += "; the block's loads (" + formatBytes(double(T.BlockLoadBytes)) +
               ") exceed its share of L1 (" +
               formatBytes(double(T.L1PerBlock)) + "), so " +
               (T.AtDram ? "up to " : "") + formatBytes(double(T.L2Bytes)) +
               " of re-reads come from L2 (" + (T.AtDram ? "at most " : "") +
               formatSeconds(T.Seconds);
  if (Light)
    F.Message += ", " + share(T.Seconds / *Light) + " the speed of light";
  if (T.AtDram)
    F.Message += ", timed at DRAM's " + times(K.Gpu->DramBandwidth / 1e9) +
                 " GB/s: the GPU data has no L2 bandwidth for " + K.Gpu->Id;
  else
    F.Message += " at " + times(K.Gpu->L2Bandwidth / 1e9) + " GB/s";
  F.Message += "); a shared-memory tile would read each element once per "
               "block" + assumptions(A);
  FindingNote N;
  N.Loc = A.Loc;
  std::string Dims;
  for (const std::string &D : A.SharedBy)
    if (D.rfind("threadIdx", 0) == 0)
      Dims += (Dims.empty() ? "" : ", ") + D;
  N.Message = (Dims.empty() ? std::string("warps of a block re-read these "
                                          "elements")
                            : "the address does not use " + Dims +
                                  ": warps that differ only there read the "
                                  "same elements") +
              "; load the block's elements into a __shared__ tile once per "
              "step, synchronize, and read them from there";
  F.Notes.push_back(N);
  Out.push_back(F);
}

std::string roofline::missingSizes(const KernelFacts &K) {
  if (!K.Unresolved.empty())
    return K.Unresolved;
  if (K.MissingParams.empty())
    return "";
  std::string Names, Flags;
  for (const std::string &P : K.MissingParams) {
    Names += (Names.empty() ? "'" : ", '") + P + "'";
    Flags += (Flags.empty() ? "--param " : " --param ") + P + "=VALUE";
  }
  return Names + (K.MissingParams.size() == 1 ? " has" : " have") +
         " no value (use " + Flags + ")";
}

// roofline-kernel-summary: the kernel's figures, or why it has none.
static Finding summary(const KernelFacts &K, const RooflineMetrics &M,
                       const std::string &Missing, const std::string &Unit) {
  Finding S;
  S.Check = "roofline-kernel-summary";
  S.Level = "note";
  S.Loc = K.Loc;
  S.Message = "kernel '" + K.Name + "': ";
  if (M.Seconds || M.SecondsUpper) {
    S.Message += "speed of light " +
                 formatSeconds(M.Seconds ? *M.Seconds : *M.SecondsUpper) +
                 " on " + K.Gpu->Name + ", " + M.Bound + "-bound";
    if (M.AILower && M.AIUpper) {
      char AI[96];
      snprintf(AI, sizeof AI, "; intensity %.4g .. %.4g FLOP/B", *M.AILower,
               *M.AIUpper);
      S.Message += AI;
    }
    if (M.Ridge) {
      char R[64];
      snprintf(R, sizeof R, " (ridge %.1f for ", *M.Ridge);
      S.Message += R + Unit + ")";
    }
  } else {
    S.Message += "per-thread counts only (" +
                 (!Missing.empty()  ? Missing
                  : M.Note.empty() ? std::string("no sizes")
                                   : M.Note) +
                 ")";
    if (K.Sweep)
      S.Message += "; " + K.Sweep->verdict(*K.Gpu);
    else if (!K.SweepWhyNot.empty())
      S.Message += "; no verdict over sizes either: " + K.SweepWhyNot;
  }
  return S;
}

// roofline-memory-bound at the kernel: Scope says for which sizes (empty:
// the launch's), AtMost qualifies an intensity that varies with them, Tail
// names an assumption, Seconds the speed of light when there is one.
static Finding memoryBound(const KernelFacts &K, const std::string &Scope,
                           const std::string &AtMost, double AI, double Ridge,
                           const std::string &Unit, const std::string &Tail,
                           std::optional<double> Seconds) {
  Finding F;
  F.Check = "roofline-memory-bound";
  F.Loc = K.Loc;
  char Text[160];
  snprintf(Text, sizeof Text, "%.3g FLOP/B, %.0fx below the ridge of %.3g FLOP/B",
           AI, Ridge / AI, Ridge);
  F.Message = "kernel '" + K.Name + "' is memory-bound" + Scope +
              ": even with every byte moved once its intensity is " + AtMost +
              Text + " for " + Unit + " on " + K.Gpu->Name + Tail;
  FindingNote N;
  N.Loc = K.Loc;
  N.Message = "bytes set its speed of light" +
              (Seconds ? " (" + formatSeconds(*Seconds) + ")" : std::string()) +
              "; fuse it with the kernel that produces or consumes its data, "
              "move narrower types (bf16/fp16 halve the bytes), or reuse "
              "data on chip";
  F.Notes.push_back(N);
  return F;
}

// Kernel-level checks: the bound, the summary and missing sizes.
static void kernelFindings(const KernelFacts &K, const FindingOptions &Opts,
                           std::vector<Finding> &Out) {
  if (!K.Metrics || !K.Gpu)
    return;
  const RooflineMetrics &M = *K.Metrics;
  auto place = [&](Finding &F) {
    F.Loc = K.Loc;
  };
  std::string Missing = missingSizes(K);
  std::string Unit = unitText(M.Precision, M.Unit);
  // The best intensity any cache could give: FLOPs over compulsory bytes.
  std::optional<double> BestAI = M.AIUpper ? M.AIUpper : M.AILower;
  // A kernel without floating-point work (a copy, a transpose) has no
  // intensity to raise: only its bandwidth matters.
  if (M.Bound == "memory" && BestAI && *BestAI > 0 && M.Ridge &&
      *BestAI < Opts.MemoryBoundRidgeFraction * *M.Ridge) {
    Out.push_back(memoryBound(K, "", "", *BestAI, *M.Ridge, Unit, "",
                              M.Seconds));
    Out.back().Seconds = memoryBoundCost(M);
  } else if (const SizeSweep *Sw = K.Sweep;
             Sw && Sw->kind() == SizeSweep::Kind::Memory && Sw->Ridge &&
             Sw->maxIntensity() > 0 &&
             Sw->maxIntensity() < Opts.MemoryBoundRidgeFraction * *Sw->Ridge) {
    // Without sizes: the same verdict when every size swept agrees on it.
    double AI = Sw->maxIntensity();
    Out.push_back(memoryBound(
        K, " at every size swept (" + Sw->range() + ")",
        Sw->minIntensity() < 0.99 * AI ? "at most " : "", AI, *Sw->Ridge,
        unitText(Sw->Precision, Sw->Unit),
        Sw->LaunchAssumption.empty() ? std::string()
                                     : " (" + Sw->LaunchAssumption + ")",
        std::nullopt));
  }
  if (Opts.KernelSummary)
    Out.push_back(summary(K, M, Missing, Unit));
  // Without sizes a kernel gets no speed of light and none of the findings
  // that need them: say so once, at the kernel, in every front-end (the
  // summary, which says it too, is off by default in the lint ones).
  if (!Missing.empty()) {
    Finding F;
    F.Check = "roofline-missing-size";
    F.Level = "note";
    place(F);
    F.Message = "kernel '" + K.Name + "' " +
                (K.Unresolved.empty() ? "has counts that need sizes: "
                                      : "has no launch sizes: ") +
                Missing;
    // The verdict without sizes, unless roofline-memory-bound said it.
    if (K.Sweep && !llvm::any_of(Out, [](const Finding &B) {
          return B.Check == "roofline-memory-bound";
        }))
      F.Message += "; without them, " + K.Sweep->verdict(*K.Gpu);
    Out.push_back(F);
  }
}


std::vector<Finding>
roofline::buildFindings(const KernelFacts &Kernel,
                        const std::vector<AccessInfo> &Accesses,
                        const FindingOptions &Opts) {
  std::vector<Finding> Out;
  kernelFindings(Kernel, Opts, Out);
  for (const AccessInfo &A : Accesses) {
    // Only code that runs, at a place in the source.
    if (!A.Reachable || A.Loc.Line == 0)
      continue;
    // Each check's findings priced by what it wastes (FindingCost.h).
    auto price = [&](size_t From, std::optional<double> Seconds) {
      for (size_t I = From; I < Out.size(); ++I)
        Out[I].Seconds = Seconds;
    };
    size_t From = Out.size();
    uncoalesced(A, Opts, Out);
    if (Kernel.Gpu)
      price(From, uncoalescedCost(A, *Kernel.Gpu));
    From = Out.size();
    bankConflict(A, Opts, Out);
    if (Kernel.Gpu)
      price(From, bankConflictCost(A, *Kernel.Gpu));
    From = Out.size();
    unvectorized(A, Out);
    if (Kernel.Gpu)
      price(From, unvectorizedCost(A, *Kernel.Gpu));
    globalReuse(A, Kernel, Opts, Out);
  }
  // Two instructions of one source access (the halves of a 32-byte copy)
  // are one finding.
  std::vector<Finding> Unique;
  for (Finding &F : Out) {
    bool Seen = false;
    for (const Finding &U : Unique)
      Seen |= U.Check == F.Check && U.Loc.File == F.Loc.File && U.Loc.Line == F.Loc.Line &&
              U.Loc.Column == F.Loc.Column && U.Message == F.Message;
    if (!Seen)
      Unique.push_back(std::move(F));
  }
  return Unique;
}

static bool kernelLevel(const std::string &Check);

// The kernel-level findings head the report, as built; then what costs
// most.
std::vector<const Finding *>
roofline::rankFindings(const std::vector<Finding> &Findings) {
  auto Tier = [](const Finding *F) {
    if (kernelLevel(F->Check))
      return 0;
    return F->Seconds ? 1 : 2;
  };
  std::vector<const Finding *> Out;
  for (const Finding &F : Findings)
    Out.push_back(&F);
  std::stable_sort(Out.begin(), Out.end(),
                   [&](const Finding *L, const Finding *R) {
                     int TL = Tier(L), TR = Tier(R);
                     if (TL != TR)
                       return TL < TR;
                     return costlier(*L, *R);
                   });
  return Out;
}

bool roofline::costlier(const Finding &L, const Finding &R) {
  if (bool(L.Seconds) != bool(R.Seconds))
    return bool(L.Seconds);
  return L.Seconds && *L.Seconds > *R.Seconds;
}

std::vector<Finding>
roofline::buildNotAnalyzedFindings(const std::vector<NotAnalyzed> &Lost) {
  std::vector<Finding> Out;
  for (const NotAnalyzed &N : Lost) {
    Finding F;
    F.Check = "roofline-not-analyzed";
    F.Loc = N.Loc;
    F.Message = N.message();
    if (N.Error.Where.Line &&
        (N.Error.Where.File != N.Loc.File || N.Error.Where.Line != N.Loc.Line ||
         N.Error.Where.Column != N.Loc.Column))
      F.Notes.push_back({N.Error.Where.File, N.Error.Where.Line,
                         N.Error.Where.Column,
                         "clang's error: " + N.Error.Message});
    Out.push_back(std::move(F));
  }
  return Out;
}

// Checks whose findings are about the kernel as a whole, said per report.
static bool kernelLevel(const std::string &Check) {
  return Check == "roofline-kernel-summary" ||
         Check == "roofline-missing-size" || Check == "roofline-memory-bound";
}

void roofline::mergeAcrossReports(std::vector<ReportFindings> &Reports) {
  for (size_t R = 0; R < Reports.size(); ++R) {
    for (Finding &F : *Reports[R].Findings) {
      if (kernelLevel(F.Check) || F.Check.empty())
        continue;
      // The same place in the later reports.
      std::vector<std::pair<std::string, std::string>> Variants = {
          {F.Message, Reports[R].Label}};
      for (size_t O = R + 1; O < Reports.size(); ++O) {
        auto &Other = *Reports[O].Findings;
        for (Finding &G : Other) {
          if (G.Check != F.Check || G.Loc.File != F.Loc.File || G.Loc.Line != F.Loc.Line ||
              G.Loc.Column != F.Loc.Column)
            continue;
          if (G.Seconds && (!F.Seconds || *F.Seconds < *G.Seconds))
            F.Seconds = G.Seconds;
          if (!llvm::any_of(Variants, [&](const auto &V) {
                return V.first == G.Message;
              }))
            Variants.push_back({G.Message, Reports[O].Label});
          G.Check.clear(); // Said here; removed below.
        }
      }
      if (Variants.size() < 2)
        continue;
      // The common beginning, up to a word.
      size_t Common = F.Message.size();
      for (const auto &V : Variants) {
        size_t I = 0;
        while (I < Common && I < V.first.size() && V.first[I] == F.Message[I])
          ++I;
        Common = I;
      }
      while (Common > 0 && F.Message[Common - 1] != ' ')
        --Common;
      std::string Merged = F.Message.substr(0, Common);
      for (size_t I = 0; I < Variants.size(); ++I)
        Merged += (I ? "; " : "") + Variants[I].first.substr(Common) +
                  " (in " + Variants[I].second + ")";
      F.Message = Merged;
    }
  }
  for (ReportFindings &R : Reports)
    llvm::erase_if(*R.Findings, [](const Finding &F) { return F.Check.empty(); });
}
