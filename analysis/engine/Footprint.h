//===- Footprint.h - Distinct bytes touched: compulsory traffic -*- C++ -*-===//
//
// dram_bytes.lower is the traffic no cache can avoid: every distinct byte
// read before it is written, plus every distinct byte written. Footprints
// are unions of byte intervals, generated from each access's affine offset
// over the sub-boxes of the launch domain that the walker proves uniform, so
// a 4096x4096 GEMM operand collapses to one interval instead of 2^24 points.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_FOOTPRINT_H
#define CUDA_ROOFLINE_FOOTPRINT_H

#include "KernelModel.h"
#include "LaunchSpec.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace roofline {

/// A set of half-open byte ranges.
class IntervalSet {
public:
  void add(int64_t Lo, int64_t Hi);
  void normalize();
  uint64_t size();
  bool overflowed() const { return TooLarge; }
  /// Marks the set unusable (too many ranges, or the analysis limits
  /// reached) and frees its ranges: it stays empty and overflowed.
  void giveUp();
  static uint64_t intersectionSize(IntervalSet &A, IntervalSet &B);
  const std::vector<std::pair<int64_t, int64_t>> &ranges();

private:
  std::vector<std::pair<int64_t, int64_t>> R;
  size_t NormalizedSize = 0;
  bool Dirty = false; ///< Ranges added since the last normalize().
  bool TooLarge = false;
};

/// Adds the byte ranges touched by an access of Width bytes at
/// C0 + sum(Coef_i * v_i), v_i in [0, N_i). Returns false if it would need
/// more than MaxRanges ranges.
bool addAffineBox(IntervalSet &S, int64_t C0,
                  std::vector<std::pair<int64_t, int64_t>> CoefAndCount,
                  int64_t Width, uint64_t MaxRanges);

/// A footprint kept as lattices of translated copies of a small set of byte
/// ranges: {sum_i Coef_i * v_i, v_i < N_i} + U. Strided accesses (each
/// thread touching every 16th byte, say) stay compact, and accesses that
/// interleave into a contiguous region merge back into one range.
class FootprintSet {
public:
  using Key = std::vector<std::pair<int64_t, int64_t>>; // (coef, count), sorted
  bool addBox(int64_t C0, std::vector<std::pair<int64_t, int64_t>> Vars,
              int64_t Width);
  void addRange(int64_t Lo, int64_t Hi) {
    Expansion.reset();
    Groups[Key()].add(Lo, Hi);
  }
  void merge(FootprintSet &Other);
  bool empty() const { return Groups.empty(); }
  /// Merges lattices whose translated copies touch into plain ranges.
  void canonicalize();
  /// The lattices, to read: normalizing them changes no byte of the set.
  std::map<Key, IntervalSet> &groups() { return Groups; }
  /// Every lattice written out as plain ranges, or null past the range
  /// budget. Kept until the set changes: the cache model compares each
  /// wave's footprint with the next wave's too.
  IntervalSet *expanded();

private:
  std::map<Key, IntervalSet> Groups;
  /// expanded()'s result (an overflowed set when over the budget).
  std::optional<IntervalSet> Expansion;
};

/// Sizes of |A|, |B| and |A intersect B| for footprints of one buffer;
/// nullopt when they cannot be computed within the range budget.
struct OverlapSizes {
  uint64_t A = 0, B = 0, Both = 0;
};
std::optional<OverlapSizes> overlap(FootprintSet &A, FootprintSet &B);

struct TrafficBound {
  std::optional<uint64_t> Lower; ///< Compulsory bytes (sound lower bound).
  bool Exact = true; ///< False if some access was left out or Sampled.
  /// Some access was left out of Lower altogether (or could touch memory
  /// nothing counted): the cache model has no footprint to start from.
  bool LeftOut = false;
  /// Accesses whose footprint is too large to walk: Lower counts the part
  /// block 0 touches, Hull the interval of addresses each spans.
  std::vector<const AccessModel *> Sampled;
  /// Lower with every Sampled access taken as its whole interval: at least
  /// the compulsory bytes, where the cache model starts. Set when Sampled
  /// is not empty and each has an interval.
  std::optional<uint64_t> Hull;
  std::vector<UnknownReason> Notes;
};

struct ThreadBox;

/// Distinct bytes access A (of block B) touches when the threads of Box run;
/// nullopt if the footprint cannot be computed within the budget.
std::optional<uint64_t>
accessFootprint(const KernelModel &M, const BlockModel &B, const AccessModel &A,
                const std::map<std::string, Expr> &Known, const ThreadBox &Box,
                uint64_t Budget);

/// Adds the bytes access A touches over Box to Into; false if they cannot
/// be computed within the budget.
bool addAccessFootprint(const KernelModel &M, const BlockModel &B,
                        const AccessModel &A,
                        const std::map<std::string, Expr> &Known,
                        const ThreadBox &Box, uint64_t Budget,
                        FootprintSet &Into);

/// Adds to Into the interval of bytes access A spans over Box (its offsets'
/// bounds, guards ignored): a superset of its footprint, for an access too
/// large to walk. False if the offset or a loop's trip count has no bound.
bool addAccessHull(const KernelModel &M, const BlockModel &B,
                   const AccessModel &A,
                   const std::map<std::string, Expr> &Known,
                   const ThreadBox &Box, FootprintSet &Into);

/// Distinct bytes of a footprint; nullopt past the range budget.
std::optional<uint64_t> footprintSize(FootprintSet &F);

TrafficBound compulsoryTraffic(const KernelModel &M,
                               const std::map<std::string, Expr> &Known,
                               const Dim3 &Grid, const Dim3 &Block,
                               uint64_t Budget);

} // namespace roofline

#endif
