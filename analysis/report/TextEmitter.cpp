//===- TextEmitter.cpp ----------------------------------------------------===//

#include "Checks.h"
#include "Counters.h"
#include "Emitters.h"

#include "llvm/Support/Format.h"

#include <cstdio>

using namespace roofline;

static std::string valueText(const std::optional<Rational> &V) {
  if (!V)
    return "unknown";
  if (auto I = V->toInt64())
    return std::to_string(*I);
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.6g", V->toDouble());
  return Buf;
}

static std::string label(const std::string &Counter) {
  if (Counter.rfind(counter::FlopsPrefix, 0) == 0)
    return "flops " + Counter.substr(6);
  if (Counter.rfind(counter::SpecialPrefix, 0) == 0)
    return "special " + Counter.substr(8);
  std::string K = reportKey(Counter);
  for (char &C : K)
    if (C == '_')
      C = ' ';
  return K;
}

static void findingText(llvm::raw_ostream &OS, const Finding &F) {
  // A promoted warning says so, as clang-tidy does.
  OS << F.Loc.File << ":" << F.Loc.Line << ":" << F.Loc.Column << ": "
     << F.Level << ": " << F.Message << " [" << F.Check
     << (F.Level == "error" ? ",-warnings-as-errors" : "") << "]\n";
  if (!F.SourceLine.empty() && F.Loc.Column >= 1) {
    OS << F.SourceLine << "\n";
    // The caret under the column, keeping tabs so it lines up.
    for (unsigned I = 0; I + 1 < F.Loc.Column && I < F.SourceLine.size(); ++I)
      OS << (F.SourceLine[I] == '\t' ? '\t' : ' ');
    OS << "^\n";
  }
  for (const FindingNote &N : F.Notes)
    OS << N.Loc.File << ":" << N.Loc.Line << ":" << N.Loc.Column
       << ": note: " << N.Message << "\n";
}

/// The kernel's heading: the roofline-kernel-summary note when that check is
/// on (returned, so that it is not printed twice), else the kernel's name.
static const Finding *kernelHeading(llvm::raw_ostream &OS,
                                    const KernelReport &K) {
  const Finding *Summary = nullptr;
  for (const Finding &F : K.Findings)
    if (F.Check == checkId(CheckId::KernelSummary))
      Summary = &F;
  if (Summary) {
    OS << Summary->Loc.File << ":" << Summary->Loc.Line << ":"
       << Summary->Loc.Column << ": note: " << Summary->Message << " ["
       << Summary->Check << "]\n";
  } else {
    OS << K.Decl.Loc.File << ":" << K.Decl.Loc.Line << ":" << K.Decl.Loc.Column
       << ": note: kernel '" << K.Decl.Name << "'\n";
  }
  return Summary;
}

/// What the numbers are for: the launch, template arguments, parameter
/// values and the pointers assumed non-null.
static void launchText(llvm::raw_ostream &OS, const KernelReport &K) {
  OS << "  launch      ";
  if (K.Launch.known())
    OS << "grid " << dimText(K.Launch.Grid) << " x block "
       << dimText(K.Launch.Block) << ", smem " << K.Launch.SharedBytes << " B";
  else
    OS << "unknown";
  OS << "  [" << launchSourceName(K.Launch.Source);
  if (!K.Launch.Loc.File.empty() && K.Launch.Loc.Line)
    OS << " " << K.Launch.Loc.File << ":" << K.Launch.Loc.Line << ":"
       << K.Launch.Loc.Column;
  if (!K.Launch.Iteration.empty())
    OS << " with " << K.Launch.Iteration;
  OS << "]\n";
  if (!K.Decl.TemplateArgs.empty()) {
    OS << "  template   ";
    for (auto &KV : K.Decl.TemplateArgs)
      OS << " " << KV.first << "=" << KV.second;
    OS << "\n";
  }
  if (!K.Params.empty()) {
    OS << "  params     ";
    for (auto &KV : K.Params) {
      OS << " " << KV.first << "=";
      if (KV.second == 0 && K.Decl.PointerParams.count(KV.first))
        OS << "null";
      else
        OS << KV.second;
    }
    OS << "\n";
  }
  for (const std::string &P : K.AssumedNonNull)
    OS << "  assume      " << P << " != null (default; --param " << P
       << "=null for the other branch)\n";
}

/// An executed-FLOPs counter that says what its algorithmic counter says
/// (no division, library math or multi-use multiply): the table leaves it
/// out, the JSON keeps it.
static bool executedAsCounted(const KernelCounts &KC, const std::string &C) {
  llvm::StringRef Name = C;
  if (!Name.consume_front(counter::ExecutedFlopsPrefix))
    return false;
  std::string Algorithmic = counter::FlopsPrefix + Name.str();
  auto Same = [&](const auto &Map, auto Equal) {
    auto A = Map.find(C), B = Map.find(Algorithmic);
    if (A == Map.end() || B == Map.end())
      return A == Map.end() && B == Map.end();
    return Equal(A->second, B->second);
  };
  auto SameQ = [](const Quantity &X, const Quantity &Y) {
    return X.Value == Y.Value && X.Formula == Y.Formula;
  };
  return Same(KC.PerThread, SameQ) && Same(KC.PerBlock, SameQ) &&
         Same(KC.Totals, [](const auto &X, const auto &Y) { return X == Y; });
}

/// The table of counters per thread, block and grid, with the thread the
/// per-thread column describes; counters that are zero everywhere are left
/// out.
static void countersText(llvm::raw_ostream &OS, const KernelReport &K) {
  const KernelCounts &KC = K.Counts;
  const int64_t *R = KC.Representative;
  if (K.Launch.known() && (R[0] || R[1] || R[2] || R[3] || R[4] || R[5]))
    OS << "  per thread   threadIdx (" << R[0] << "," << R[1] << "," << R[2]
       << ") of block (" << R[3] << "," << R[4] << "," << R[5]
       << "), the first that passes every guard\n";
  OS << llvm::format("  %-20s %14s %14s %18s   %s\n", "", "per thread",
                     "per block", "per grid", "formula (per thread)");
  for (auto &KV : KC.PerThread) {
    if (KV.first.rfind(counter::DivPrefix, 0) == 0)
      continue;
    if (executedAsCounted(KC, KV.first))
      continue;
    const Quantity &Q = KV.second;
    bool AllZero = Q.Value && Q.Value->isZero();
    auto T = KC.Totals.find(KV.first);
    if (T != KC.Totals.end() && !(T->second && T->second->isZero()))
      AllZero = false;
    if (AllZero)
      continue;
    std::string PV = valueText(Q.Value);
    // The formula column only when it says more than the number.
    std::string PT = Q.Formula && *Q.Formula != PV ? *Q.Formula : "";
    auto B = KC.PerBlock.find(KV.first);
    char Line[512];
    snprintf(Line, sizeof(Line), "  %-20s %14s %14s %18s   %s",
             label(KV.first).c_str(), PV.c_str(),
             B == KC.PerBlock.end() ? "-" : valueText(B->second.Value).c_str(),
             T == KC.Totals.end() ? "-" : valueText(T->second).c_str(),
             PT.c_str());
    OS << llvm::StringRef(Line).rtrim() << "\n";
  }
}

/// With a launch: the threads and paths, DRAM bytes and the intensity range,
/// whose line speedOfLightText ends with the ridge.
static void launchedText(llvm::raw_ostream &OS, const KernelReport &K) {
  const KernelCounts &KC = K.Counts;
  const RooflineMetrics &M = K.Metrics;
  OS << "  threads      launched " << valueText(KC.ThreadsLaunched)
     << ", active " << valueText(KC.ThreadsActive) << "\n";
  for (const PathCount &P : KC.Paths) {
    if (P.Guard == "true")
      continue;
    // A path in a header's device function names the header.
    OS << "  path         ";
    if (P.Loc.File.empty() || P.Loc.File == K.Decl.Loc.File)
      OS << "line " << P.Loc.Line;
    else
      OS << P.Loc.File << ":" << P.Loc.Line;
    OS << " if " << P.Guard << ": " << valueText(P.BlockThreads)
       << " threads in block 0, " << valueText(P.GridThreads)
       << " in the grid\n";
  }
  OS << "  dram bytes   lower "
     << (M.DramLower ? formatBytes(*M.DramLower) : std::string("unknown"))
     << (KC.Compulsory.Exact ? "" : " (partial)") << ", upper "
     << (M.DramUpper ? formatBytes(*M.DramUpper) : std::string("unknown"));
  if (M.DramEstimate)
    OS << ", estimate " << formatBytes(*M.DramEstimate) << " ("
       << (KC.Estimate.FitsInL2
               ? std::string("fits in L2")
               : std::to_string(KC.Estimate.Waves) +
                     (KC.Estimate.Waves == 1 ? " wave of " : " waves of ") +
                     std::to_string(KC.Estimate.BlocksPerWave) + " blocks")
       << ")";
  OS << "\n";
  OS << "  intensity    ";
  if (M.AILower)
    OS << llvm::format("%.4g", *M.AILower);
  else
    OS << "?";
  OS << " .. ";
  if (M.AIUpper)
    OS << llvm::format("%.4g", *M.AIUpper);
  else
    OS << "?";
  OS << " FLOP/B";
  if (M.AIEstimate)
    OS << ", estimate " << llvm::format("%.4g", *M.AIEstimate);
}

/// The end of the intensity line (the ridge) and the speed of light, or the
/// note on why there is none.
static void speedOfLightText(llvm::raw_ostream &OS, const RooflineMetrics &M) {
  OS << "  (ridge ";
  if (M.Ridge)
    OS << llvm::format("%.1f", *M.Ridge);
  else
    OS << "?";
  OS << " for " << M.Precision << " on " << computeUnitName(M.Unit) << ")\n";
  if (M.Seconds || M.SecondsUpper) {
    OS << "  speed of light ";
    if (M.Seconds)
      OS << formatSeconds(*M.Seconds);
    else
      OS << "?";
    if (M.SecondsEstimate)
      OS << " (cache estimate: " << formatSeconds(*M.SecondsEstimate) << ")";
    if (M.SecondsUpper)
      OS << " (no reuse: " << formatSeconds(*M.SecondsUpper) << ")";
    OS << ", " << M.Bound << "-bound\n";
  } else if (M.LowerBound) {
    OS << "  speed of light \u2265 " << formatSeconds(*M.LowerBound)
       << " from the known work; unknown: " << M.LowerBoundWhy << "\n";
  } else if (!M.Note.empty()) {
    OS << "  note         " << M.Note << "\n";
  }
}

/// "predicted": the time, its limiter and the three longest resources.
static void predictedText(llvm::raw_ostream &OS, const KernelReport &K) {
  const Prediction &P = K.Predicted;
  if (!P.Seconds)
    return;
  OS << "  predicted    " << formatSeconds(*P.Seconds) << ", "
     << predictionLimiter(P);
  if (K.Metrics.Seconds)
    OS << "; speed of light " << formatSeconds(*K.Metrics.Seconds);
  OS << "\n";
  for (size_t I = 0; I < P.Resources.size() && I < 3; ++I) {
    const ResourceTime &R = P.Resources[I];
    std::string Work = formatCount(R.Work) + " " + R.Unit;
    OS << llvm::format("    %-36s %-28s %10s %4.0f%%\n", R.Title.c_str(),
                       Work.c_str(), formatSeconds(R.Seconds).c_str(),
                       *P.Seconds > 0 ? 100 * R.Seconds / *P.Seconds : 0.0);
  }
  for (const std::string &L : P.LeftOut)
    OS << "    not predicted: " << L << "\n";
  const Occupancy &O = K.Counts.Occ;
  if (!O.BlocksPerSM)
    return;
  OS << "  occupancy    " << O.WarpsPerSM << " of " << O.MaxWarpsPerSM
     << " warps per SM (" << O.BlocksPerSM
     << (O.BlocksPerSM == 1 ? " block" : " blocks") << ", limited by "
     << O.Limiter << "), " << O.WarpsInFlight << " warps in flight; ";
  if (!O.Registers) {
    OS << "registers unknown: " << O.RegistersWhy << "\n";
    return;
  }
  OS << O.Registers << " registers a thread";
  if (O.SpillStoreBytes || O.SpillLoadBytes)
    OS << ", spills " << O.SpillStoreBytes << " B stored and "
       << O.SpillLoadBytes << " B loaded a thread";
  OS << "\n";
}

/// One kernel's report, top to bottom: heading, launch, counters,
/// intensity, speed of light, unknowns, then the findings by cost.
static void kernelText(llvm::raw_ostream &OS, const KernelReport &K,
                       const GpuSpec &Gpu) {
  const KernelCounts &KC = K.Counts;
  const Finding *Summary = kernelHeading(OS, K);
  launchText(OS, K);
  countersText(OS, K);
  if (K.Launch.known())
    launchedText(OS, K);
  else
    OS << "  intensity    "
       << (KC.IntensityFormula
               ? *KC.IntensityFormula + " FLOP/B per thread (requested)"
               : std::string("needs sizes"));
  speedOfLightText(OS, K.Metrics);
  predictedText(OS, K);
  for (const UnknownReason &U : KC.Unknowns)
    OS << U.Loc.File << ":" << U.Loc.Line << ":" << U.Loc.Column
       << ": note: unknown: " << U.Reason << "\n";
  for (const Finding *F : rankFindings(K.Findings)) {
    if (F == Summary)
      continue;
    // The summary heading the report already says why sizes are missing;
    // promoted to an error, the note prints all the same.
    if (Summary && F->Check == checkId(CheckId::MissingSize) &&
        F->Level == "note")
      continue;
    findingText(OS, *F);
  }
}

void roofline::emitKernelText(llvm::raw_ostream &OS, const KernelReport &K,
                              const GpuSpec &Gpu) {
  kernelText(OS, K, Gpu);
}

void roofline::emitText(llvm::raw_ostream &OS,
                        const std::vector<FileReport> &Files,
                        bool FindingsOnly) {
  for (const FileReport &F : Files) {
    for (const Finding &Fd : F.Findings)
      findingText(OS, Fd);
    if (FindingsOnly) {
      // Warnings and errors, each kernel's the most costly first, and the
      // note that says why a kernel may have none: a kernel without sizes
      // is never passed over in silence.
      for (const KernelReport &K : F.Kernels)
        for (const Finding *Fd : rankFindings(K.Findings))
          if (Fd->Level != "note" || Fd->Check == checkId(CheckId::MissingSize))
            findingText(OS, *Fd);
      continue;
    }
    for (const auto &T : F.UninstantiatedTemplates)
      OS << T.second.File << ":" << T.second.Line << ":" << T.second.Column
         << ": note: kernel template '" << T.first
         << "' has no instantiation to analyze; name one with --launch '"
         << T.first << "<ARGS>=GRID/BLOCK'\n";
    if (F.Kernels.empty() && F.UninstantiatedTemplates.empty() &&
        F.Lost.empty())
      OS << F.File << ": note: no kernels found\n";
    for (const KernelReport &K : F.Kernels)
      kernelText(OS, K, *F.Gpu);
  }
}
