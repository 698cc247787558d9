//===- SizeSweep.h - The roofline verdict without problem sizes -*- C++ -*-===//
//
// In an editor or a review nobody gives sizes, yet whether a kernel is
// memory- or compute-bound often does not depend on them (an elementwise
// kernel's intensity is the same for every n), or depends on them in a way
// worth saying (a GEMM becomes compute-bound from some size on). The sweep
// counts the kernel with every missing size set to each of
// rooflineSweepSizes() in turn, at the launch its call site gives for that
// size (or an assumed one, named), and classifies each sample by its
// compulsory bytes, as the speed of light with sizes does.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_SIZESWEEP_H
#define CUDA_ROOFLINE_SIZESWEEP_H

#include "GpuDatabase.h"
#include "HostLaunches.h"
#include "KernelCounts.h"
#include "KernelModel.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct SizeSweep {
  /// The sizes that take each sample value together: the launch's host
  /// names, then the kernel's parameters no argument gives.
  std::vector<std::string> Names;
  /// How each sample was launched when not by the call site, or empty.
  std::string LaunchAssumption;
  struct Point {
    int64_t Size = 0;
    double Flops = 0;
    double Bytes = 0; ///< Compulsory DRAM bytes: every byte moved once.
    bool ComputeBound = false;
    double intensity() const { return Bytes > 0 ? Flops / Bytes : 0; }
  };
  std::vector<Point> Points;
  std::string Precision = "fp32";
  ComputeUnit Unit = ComputeUnit::CudaCore;
  std::optional<double> Ridge;

  /// The verdict of the largest sizes, and whether the smaller ones agree:
  /// below one tile of a kernel without bounds checks, or when fixed work
  /// (a block's reduction) outweighs a small problem, they may not.
  enum class Kind { Memory, Compute, ComputeFrom, MemoryFrom };
  Kind kind() const;
  /// The first sample from which every larger one has the verdict of the
  /// largest.
  size_t from() const;
  /// The least and most intensity over the samples from from() on that
  /// have FLOPs.
  double minIntensity() const;
  double maxIntensity() const;
  /// "M = N = K", or "S" when only the assumed grid (S threads on each
  /// axis) moves.
  std::string names() const;
  /// "M = N = K = 16 .. 16384"
  std::string range() const;
  /// The verdict as messages print it: "memory-bound at every size swept
  /// (n = 16 .. 16384), intensity 0.167 FLOP/B (ridge 20 ...)".
  std::string verdict(const GpuSpec &Gpu) const;
};

/// The sweep of kernel M (counted as Decl with the values Params) at
/// launch LI, which lacks sizes: its grid (LI.Samples give it per size, or
/// one is assumed) or kernel parameters. nullopt, with WhyNot, if some
/// sample's FLOPs or compulsory bytes are unknown or nothing is missing.
std::optional<SizeSweep>
sweepRoofline(const KernelModel &M, const KernelDecl &Decl,
              const KernelLaunch &LI,
              const std::map<std::string, int64_t> &Params, const GpuSpec &Gpu,
              std::string &WhyNot);

} // namespace roofline

#endif
