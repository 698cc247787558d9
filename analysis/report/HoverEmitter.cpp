//===- HoverEmitter.cpp - What an editor shows on hover -------------------===//
//
// The language server's hovers, formatted from the report like every other
// emitter: nothing here is computed, only chosen and worded.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"

#include "llvm/Support/Format.h"

using namespace roofline;

static std::string fixed(double V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.4g", V);
  return S;
}

std::string roofline::kernelHover(const KernelReport &K, const GpuSpec &Gpu) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  const RooflineMetrics &M = K.Metrics;
  OS << "**kernel `" << K.Decl.Name << "`**";
  if (M.Seconds)
    OS << ": speed of light " << formatSeconds(*M.Seconds) << " on " << Gpu.Name
       << ", " << M.Bound << "-bound";
  else if (!K.MissingSizes.empty())
    OS << ": " << K.MissingSizes;
  else if (M.LowerBound)
    OS << ": speed of light \u2265 " << formatSeconds(*M.LowerBound) << " on "
       << Gpu.Name << " from the known work";
  OS << "\n\n```text\n";
  emitKernelText(OS, K, Gpu);
  OS << "```\n";
  return Out;
}

std::string roofline::accessHover(const KernelReport &K, const AccessInfo &A) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "**" << (A.Space == MemSpace::Shared ? "shared" : "global") << " "
     << A.kind() << " `" << A.Expr << "`** in kernel `" << K.Decl.Name
     << "`\n\n";
  OS << "- " << A.Width << " B per access";
  if (A.CountPerThread)
    OS << ", " << A.CountPerThread->str() << " per thread";
  if (A.MachineWidth)
    OS << "; " << A.MachineWidth
       << " B per machine instruction (merged with its neighbours)";
  OS << "\n";
  if (!A.Unknown.empty())
    OS << "- pattern unknown: " << A.Unknown << "\n";
  if (A.Sectors)
    OS << "- " << A.Sectors->Sectors << " sectors per warp request ("
       << A.Sectors->BytesUsed << " B used of " << A.Sectors->BytesFetched
       << " fetched, efficiency " << fixed(A.Sectors->efficiency()) << ")\n";
  if (A.Banks)
    OS << "- " << A.Banks->Ways << "-way bank conflict, " << A.Banks->Wavefronts
       << " wavefront(s) per request (at best " << A.Banks->MinWavefronts
       << ")\n";
  if (A.GridRequested && A.GridDistinct && *A.GridDistinct)
    OS << "- the grid requests " << formatBytes(double(*A.GridRequested))
       << " for " << formatBytes(double(*A.GridDistinct))
       << " distinct: each byte "
       << fixed(double(*A.GridRequested) / double(*A.GridDistinct))
       << " times\n";
  for (const Finding &F : K.Findings)
    if (F.Loc.Line == A.Loc.Line && F.Loc.Column == A.Loc.Column)
      OS << "\n" << F.Level << ": " << F.Message << " [" << F.Check << "]\n";
  return Out;
}
