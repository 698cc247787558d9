//===- LintOptions.cpp ----------------------------------------------------===//

#include "LintOptions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>

using namespace roofline;

static llvm::Error bad(llvm::StringRef Key, llvm::StringRef Value,
                       const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "option '" + Key + "': bad value '" + Value +
                                     "': " + Why);
}

// "MinEfficiencyLoss" -> "min-efficiency-loss"; dashed keys stay.
static std::string dashed(llvm::StringRef Key) {
  std::string Out;
  for (size_t I = 0; I < Key.size(); ++I) {
    char C = Key[I];
    if (llvm::isUpper(C)) {
      if (I)
        Out += '-';
      Out += char(llvm::toLower(C));
    } else {
      Out += C == '_' ? '-' : C;
    }
  }
  return Out;
}

static llvm::Expected<double> number(llvm::StringRef Key,
                                     llvm::StringRef Value) {
  double D;
  if (Value.trim().getAsDouble(D))
    return bad(Key, Value, "expected a number");
  return D;
}

llvm::Error roofline::checkFindingOptions(const FindingOptions &O) {
  auto fail = [](const char *Key, double V, const char *Range) {
    // The shortest text that reads back as V: the value as the user wrote it.
    char Buf[32];
    for (int Digits = 1; Digits <= 17; ++Digits) {
      snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
      if (strtod(Buf, nullptr) == V)
        break;
    }
    std::string Text = Buf;
    // printf writes 1e-09; C and the user write 1e-9.
    size_t E = Text.find("e-0");
    if (E == std::string::npos)
      E = Text.find("e+0");
    if (E != std::string::npos)
      Text.erase(E + 2, 1);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "option '" + llvm::Twine(Key) +
                                       "' must be " + Range + ": got " + Text);
  };
  if (!(O.MinEfficiencyLoss >= 0.0 && O.MinEfficiencyLoss < 1.0))
    return fail("min-efficiency-loss", O.MinEfficiencyLoss, "in [0, 1)");
  if (O.MinConflictWays < 2 || O.MinConflictWays > 32)
    return fail("min-conflict-ways", O.MinConflictWays, "between 2 and 32");
  if (!(O.MinReuse >= 2.0))
    return fail("min-reuse", O.MinReuse, "at least 2");
  if (!(O.MinReuseCost >= 0.0))
    return fail("min-reuse-cost", O.MinReuseCost, "at least 0");
  if (!(O.MemoryBoundRidgeFraction > 0.0 && O.MemoryBoundRidgeFraction <= 1.0))
    return fail("memory-bound-fraction", O.MemoryBoundRidgeFraction,
                "in (0, 1]");
  return llvm::Error::success();
}

llvm::Error roofline::setLintOption(AnalyzerOptions &Opts, llvm::StringRef Key,
                                    llvm::StringRef Value) {
  std::string K = dashed(Key.trim());
  Value = Value.trim();
  FindingOptions &F = Opts.Findings;
  if (K == "gpu") {
    if (Value.empty())
      return bad(Key, Value, "expected a GPU id (see --list-gpus)");
    Opts.GpuId = Value.str();
    return llvm::Error::success();
  }
  if (K == "param" || K == "params") {
    llvm::SmallVector<llvm::StringRef, 8> Items;
    Value.split(Items, K == "param" ? "\n" : (Value.contains(';') ? ";" : ","),
                -1, /*KeepEmpty=*/false);
    for (llvm::StringRef I : Items) {
      auto KV = parseParam(I.trim());
      if (!KV)
        return bad(Key, Value, llvm::toString(KV.takeError()));
      Opts.Params[KV->first] = KV->second;
    }
    return llvm::Error::success();
  }
  if (K == "launch" || K == "launches") {
    llvm::SmallVector<llvm::StringRef, 4> Items;
    Value.split(Items, K == "launch" ? "\n" : ";", -1, /*KeepEmpty=*/false);
    for (llvm::StringRef I : Items) {
      auto L = parseLaunchOverride(I.trim());
      if (!L)
        return bad(Key, Value, llvm::toString(L.takeError()));
      Opts.Launches.push_back(*L);
    }
    return llvm::Error::success();
  }
  if (K == "kernel-summary" || K == "prelude") {
    bool &Flag = K == "prelude" ? Opts.Prelude : F.KernelSummary;
    std::string V = Value.lower();
    if (V == "true" || V == "1" || V == "on")
      Flag = true;
    else if (V == "false" || V == "0" || V == "off")
      Flag = false;
    else
      return bad(Key, Value, "expected true or false");
    return llvm::Error::success();
  }
  // The limits: a value >= 0 in a unit, 0 for none.
  for (auto [Name, Field, Unit] :
       {std::tuple("max-kernel-seconds", &AnalyzerOptions::KernelSeconds,
                   "seconds"),
        std::tuple("max-file-seconds", &AnalyzerOptions::FileSeconds,
                   "seconds"),
        std::tuple("max-kernel-memory", &AnalyzerOptions::KernelMemoryMiB,
                   "MiB")}) {
    if (K != Name)
      continue;
    auto D = number(Key, Value);
    if (!D)
      return D.takeError();
    if (*D < 0)
      return bad(Key, Value,
                 std::string("expected ") + Unit + " >= 0 (0: no limit)");
    Opts.*Field = *D;
    return llvm::Error::success();
  }
  double *Target = K == "min-efficiency-loss"     ? &F.MinEfficiencyLoss
                   : K == "min-reuse"             ? &F.MinReuse
                   : K == "min-reuse-cost"        ? &F.MinReuseCost
                   : K == "memory-bound-fraction" ? &F.MemoryBoundRidgeFraction
                                                  : nullptr;
  if (Target || K == "min-conflict-ways") {
    auto D = number(Key, Value);
    if (!D)
      return D.takeError();
    if (Target)
      *Target = *D;
    // Range first: converting a negative or huge double to unsigned is
    // undefined behaviour.
    else if (!(*D >= 0 && *D <= double(UINT_MAX)) || *D != std::floor(*D))
      return bad(Key, Value, "expected a whole number");
    else
      F.MinConflictWays = unsigned(*D);
    return checkFindingOptions(F);
  }
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "unknown option '" + Key +
          "' (expected gpu, param, params, launch, launches, "
          "min-efficiency-loss, min-conflict-ways, min-reuse, "
          "min-reuse-cost, memory-bound-fraction, kernel-summary, max-kernel-seconds, "
          "max-kernel-memory, max-file-seconds or prelude)");
}
