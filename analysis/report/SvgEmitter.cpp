//===- SvgEmitter.cpp - The hierarchical roofline as a picture ------------===//
//
// One chart for the analyzed kernels on the target GPU: FLOP/s against
// arithmetic intensity, both logarithmic. The memory roofs (DRAM, L2, L1,
// each bandwidth times intensity) and the compute roofs of the precisions
// the kernels use are lines; each kernel is one point per memory level, at
// its FLOPs over that level's bytes and its FLOPs over its predicted time
// (docs/prediction.md, "The picture"). Everything is read from the reports.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>

using namespace roofline;

namespace {

constexpr double Width = 960, Height = 640;
constexpr double Left = 90, Right = 250, Top = 50, Bottom = 70;

struct Point {
  std::string Kernel, Level;
  double Intensity = 0, FlopRate = 0;
};

struct Roof {
  std::string Name, Label;
  double Rate = 0; ///< Bytes/s (memory) or FLOP/s (compute).
};

/// The memory level of a resource, its bytes from the resource's work.
struct Level {
  const char *Resource, *Name;
  double BytesPerUnit;
  const char *Color; ///< Of its roof and its points.
};
const Level Levels[] = {{"dram", "DRAM", 1, "#c0392b"},
                        {"l2", "L2", 1, "#d68910"},
                        {"l1_wavefronts", "L1", 128, "#1e8449"}};

const char *colorOf(llvm::StringRef Level) {
  for (const ::Level &L : Levels)
    if (Level == L.Name)
      return L.Color;
  return "#2c3e50";
}

class Chart {
public:
  Chart(const GpuSpec &Gpu) : Gpu(Gpu) {}
  void add(const KernelReport &K);
  void leaveOut(const std::string &Why) { NotPlotted.push_back(Why); }
  void write(llvm::raw_ostream &OS);

private:
  double x(double Intensity) const {
    return Left +
           (std::log10(Intensity) - X0) / (X1 - X0) * (Width - Left - Right);
  }
  double y(double Rate) const {
    return Height - Bottom -
           (std::log10(Rate) - Y0) / (Y1 - Y0) * (Height - Top - Bottom);
  }
  void range();
  void axes(llvm::raw_ostream &OS);
  void roofs(llvm::raw_ostream &OS);
  void points(llvm::raw_ostream &OS);

  const GpuSpec &Gpu;
  std::vector<Point> Points;
  std::vector<Roof> Memory, Compute;
  std::vector<std::string> NotPlotted;
  double X0 = -2, X1 = 4, Y0 = 9, Y1 = 15;
};

} // namespace

/// Text safe inside an SVG element or attribute.
static std::string escape(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

void Chart::add(const KernelReport &K) {
  const Prediction &P = K.Predicted;
  const RooflineMetrics &M = K.Metrics;
  std::string Name = K.Decl.Name;
  if (!P.Seconds || *P.Seconds <= 0) {
    NotPlotted.push_back(Name + ": " +
                         (P.Why.empty() ? "no prediction" : P.Why));
    return;
  }
  if (!M.Flops || *M.Flops <= 0) {
    NotPlotted.push_back(Name + ": no FLOPs");
    return;
  }
  for (const Level &L : Levels)
    for (const ResourceTime &R : P.Resources)
      if (R.Name == L.Resource && R.Work > 0)
        Points.push_back({Name, L.Name, *M.Flops / (R.Work * L.BytesPerUnit),
                          *M.Flops / *P.Seconds});
  std::string Unit = unitText(M.Precision, M.Unit);
  if (M.Peak &&
      llvm::none_of(Compute, [&](const Roof &R) { return R.Name == Unit; }))
    Compute.push_back({Unit, Unit, *M.Peak});
}

void Chart::range() {
  Memory.push_back({"DRAM", "DRAM", Gpu.DramBandwidth});
  if (Gpu.L2Bandwidth > 0)
    Memory.push_back({"L2", "L2", Gpu.L2Bandwidth});
  if (auto L1 = Gpu.pipeRate("shared_bytes"))
    Memory.push_back({"L1", "L1", *L1});
  double PeakMax = 0;
  for (const Roof &R : Compute)
    PeakMax = std::max(PeakMax, R.Rate);
  if (PeakMax <= 0)
    PeakMax = Gpu.peak(ComputeUnit::CudaCore, "fp32").value_or(1e13);
  double AIMin = 1, AIMax = 1, RateMin = PeakMax;
  for (const Point &P : Points) {
    AIMin = std::min(AIMin, P.Intensity);
    AIMax = std::max(AIMax, P.Intensity);
    RateMin = std::min(RateMin, P.FlopRate);
  }
  // Every ridge point (peak over bandwidth) is on the chart.
  for (const Roof &R : Memory)
    AIMax = std::max(AIMax, PeakMax / R.Rate);
  X0 = std::floor(std::log10(AIMin)) - 1;
  X1 = std::ceil(std::log10(AIMax)) + 1;
  Y1 = std::ceil(std::log10(PeakMax) + 0.3);
  Y0 = std::min(std::floor(std::log10(RateMin)) - 1, Y1 - 4);
}

void Chart::axes(llvm::raw_ostream &OS) {
  OS << "<g class=\"axes\" stroke=\"#888\" font-size=\"11\">\n";
  for (int E = int(X0); E <= int(X1); ++E)
    OS << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke-opacity=\"0.3\"/><text x=\"%.1f\" y=\"%.1f\" "
                       "text-anchor=\"middle\" stroke=\"none\">1e%d</text>\n",
                       x(std::pow(10, E)), Top, x(std::pow(10, E)),
                       Height - Bottom, x(std::pow(10, E)),
                       Height - Bottom + 16, E);
  for (int E = int(Y0); E <= int(Y1); ++E)
    OS << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke-opacity=\"0.3\"/><text x=\"%.1f\" y=\"%.1f\" "
                       "text-anchor=\"end\" stroke=\"none\">1e%d</text>\n",
                       Left, y(std::pow(10, E)), Width - Right,
                       y(std::pow(10, E)), Left - 6, y(std::pow(10, E)) + 4, E);
  OS << llvm::format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                     "stroke=\"none\" font-size=\"13\">arithmetic intensity "
                     "(FLOP/byte of each level)</text>\n",
                     (Left + Width - Right) / 2, Height - 25);
  OS << llvm::format("<text x=\"20\" y=\"%.1f\" stroke=\"none\" "
                     "font-size=\"13\" transform=\"rotate(-90 20 %.1f)\" "
                     "text-anchor=\"middle\">FLOP/s (predicted)</text>\n",
                     (Top + Height - Bottom) / 2, (Top + Height - Bottom) / 2);
  OS << "</g>\n";
}

void Chart::roofs(llvm::raw_ostream &OS) {
  double PeakMax = 0;
  for (const Roof &R : Compute)
    PeakMax = std::max(PeakMax, R.Rate);
  OS << "<g class=\"roofs\" stroke-width=\"2\" font-size=\"12\">\n";
  for (const Roof &R : Memory) {
    double XEnd = std::min(std::pow(10, X1), PeakMax / R.Rate);
    double XStart = std::max(std::pow(10, X0), std::pow(10, Y0) / R.Rate);
    OS << llvm::format(
        "<line class=\"roof memory\" data-level=\"%s\" data-bandwidth=\"%g\" "
        "x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
        R.Name.c_str(), R.Rate, x(XStart), y(XStart * R.Rate), x(XEnd),
        y(XEnd * R.Rate), colorOf(R.Name));
    OS << llvm::format("<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s %.0f GB/s"
                       "</text>\n",
                       x(XStart) + 4, y(XStart * R.Rate) - 6, colorOf(R.Name),
                       R.Label.c_str(), R.Rate / 1e9);
  }
  for (const Roof &R : Compute)
    OS << llvm::format(
        "<line class=\"roof compute\" data-unit=\"%s\" data-peak=\"%g\" "
        "x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2c3e50\"/>"
        "<text x=\"%.1f\" y=\"%.1f\">%s %.1f TFLOP/s</text>\n",
        escape(R.Name).c_str(), R.Rate, x(std::pow(10, X0)), y(R.Rate),
        Width - Right, y(R.Rate), Width - Right + 6, y(R.Rate) + 4,
        escape(R.Label).c_str(), R.Rate / 1e12);
  OS << "</g>\n";
}

void Chart::points(llvm::raw_ostream &OS) {
  OS << "<g class=\"points\" font-size=\"11\">\n";
  for (const Point &P : Points) {
    OS << llvm::format(
        "<circle class=\"point\" data-kernel=\"%s\" data-level=\"%s\" "
        "data-intensity=\"%g\" data-flops-per-second=\"%g\" cx=\"%.1f\" "
        "cy=\"%.1f\" r=\"5\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">%s "
        "(%s)</text>\n",
        escape(P.Kernel).c_str(), P.Level.c_str(), P.Intensity, P.FlopRate,
        x(P.Intensity), y(P.FlopRate), colorOf(P.Level), x(P.Intensity) + 7,
        y(P.FlopRate) - 7, escape(P.Kernel).c_str(), P.Level.c_str());
  }
  OS << "</g>\n";
  double Y = Top;
  OS << "<g class=\"not-plotted\" font-size=\"11\">\n";
  for (const std::string &N : NotPlotted) {
    OS << llvm::format("<text x=\"%.1f\" y=\"%.1f\">not plotted: %s</text>\n",
                       Width - Right + 6, Y += 14, escape(N).c_str());
  }
  OS << "</g>\n";
}

void Chart::write(llvm::raw_ostream &OS) {
  range();
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  OS << llvm::format("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                     "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                     "font-family=\"sans-serif\">\n",
                     Width, Height, Width, Height);
  OS << "<title>Hierarchical roofline: " << escape(Gpu.Name) << "</title>\n";
  OS << llvm::format("<text x=\"%.1f\" y=\"28\" font-size=\"16\">"
                     "Hierarchical roofline, %s</text>\n",
                     Left, escape(Gpu.Name).c_str());
  axes(OS);
  roofs(OS);
  points(OS);
  OS << "</svg>\n";
}

void roofline::emitRooflineSvg(llvm::raw_ostream &OS,
                               const std::vector<FileReport> &Files) {
  const GpuSpec *Gpu = nullptr;
  for (const FileReport &F : Files)
    if (!Gpu && F.Gpu)
      Gpu = F.Gpu;
  if (!Gpu)
    Gpu = GpuDatabase::builtin().find(DefaultGpu);
  Chart C(*Gpu);
  for (const FileReport &F : Files)
    for (const KernelReport &K : F.Kernels) {
      if (F.Gpu == Gpu)
        C.add(K);
      else
        C.leaveOut(K.Decl.Name + ": analyzed for " +
                   (F.Gpu ? F.Gpu->Id : std::string("no GPU")));
    }
  C.write(OS);
}
