//===- AccessAnalysis.h - Per-access warp behaviour -------------*- C++ -*-===//
//
// For every global and shared access of a kernel, what one warp request
// looks like: the byte address of each lane of the first warp of block 0 in
// the first iteration of the enclosing loops, from the access's offset
// formula and the launch's block shape (or, when the launch is unknown,
// taking blockDim.x to be a multiple of 32 so that lanes are threadIdx.x
// 0..31). Global requests get sectors and efficiency (base pointers
// 256-byte aligned), shared requests bank conflicts (each __shared__
// variable starting at bank 0).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_ACCESSANALYSIS_H
#define CUDA_ROOFLINE_ACCESSANALYSIS_H

#include "AccessPattern.h"
#include "KernelCounts.h"
#include "KernelModel.h"
// AccessInfo::Expr is read back from the source with expressionAt.
#include "SourceText.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// What a shared-memory tile of a global load would save, priced by
/// priceTiles (TileCost.h) from the reuse measured here and the cache model's
/// view of L1.
struct TileSaving {
  /// Times the warps of block (0,0,0) read each element: a warp request
  /// reads an address once however many lanes name it (a broadcast), so
  /// this counts reuse between warps only.
  double BetweenWarps = 0;
  /// Each warp reads one element, once: a scalar per warp or per block,
  /// which no tile is for.
  bool Scalar = false;
  /// Sector bytes the grid's warp requests fetch beyond each block's
  /// distinct bytes: the re-reads a tile turns into shared-memory reads.
  uint64_t ReReadBytes = 0;
  /// Distinct bytes block (0,0,0) loads from global memory (every load of
  /// the kernel), and the L1 each resident block has (0: unknown).
  uint64_t BlockLoadBytes = 0, L1PerBlock = 0;
  /// What the block loads between two reads of a sector in one walk, and
  /// between two walks (AccessInfo::Reuse; the whole footprint when that is
  /// unknown), and the grid's re-reads of a later walk.
  uint64_t WindowBytes = 0, FarWindowBytes = 0, FarReReadBytes = 0;
  /// Most of the L2 bytes are re-reads of a later walk.
  bool MostlyFar = false;
  /// The re-reads L1 cannot keep, which come from L2: what the tile saves,
  /// and their time at the GPU's L2 bandwidth, or at its DRAM bandwidth (an
  /// upper bound, AtDram) when the GPU data has no L2 figure.
  uint64_t L2Bytes = 0;
  double Seconds = 0;
  bool AtDram = false;
  /// Why there is no price (L1 size unknown, reuse not measured).
  std::string Why;
};

/// How the iterations of a load's loop nest come back to its sectors, in
/// iterations of the nest (thread (0,0,0)'s trip counts).
struct ReuseShape {
  /// Iterations of the nest, and of the loops that move the address (one
  /// walk of its elements).
  double Nest = 1, Walk = 1;
  /// Iterations from a lane's read of a sector to its last read of it in
  /// the walk (0: a lane reads each sector once a walk; other warps re-read
  /// it in the same iteration).
  double Near = 0;
  /// Iterations between two walks, when a loop that does not move the
  /// address repeats the walk of the loops inside it (0: none), the walk's
  /// iterations among them, and the walks.
  double Far = 0, FarWalk = 0, Repeats = 1;
};

struct AccessInfo {
  SourceLoc Loc;
  MemSpace Space = MemSpace::Global;
  bool IsStore = false, IsAtomic = false;
  std::string Base; ///< Parameter or __shared__ variable.
  /// Source text of the accessed expression, if found (expressionAt).
  std::string Expr;
  unsigned Width = 0;
  /// Bytes per lane of the shared-memory instruction the back end merges
  /// the access into (AccessModel::MachineWidth); 0: Width. Banks and the
  /// requests are that instruction's.
  unsigned MachineWidth = 0;
  /// A bulk or TMA copy's global end (AccessModel::Bulk).
  bool Bulk = false;
  /// Executions per thread with every guard passing.
  std::optional<Rational> CountPerThread;
  std::optional<SectorReport> Sectors; ///< Global accesses.
  std::optional<BankReport> Banks;     ///< Shared accesses.
  /// With a bank conflict: its cause and the fixes, recomputed.
  std::optional<BankAdvice> BankFix;
  AccessClass Class = AccessClass::Irregular;
  /// The address is of degree 1 in the thread coordinates (through /, %
  /// and selects too): each warp's lanes repeat warp 0's pattern, moved
  /// (its sectors stand for theirs).
  bool AffineInThreads = false;
  /// Lane stride in elements (Strided), else 0.
  int64_t StrideElements = 0;
  /// How the address moves with threadIdx.x, e.g. "4*K" (bytes per lane
  /// when threadIdx.x is the lane), for notes.
  std::string LaneCoefficient;
  /// Why there is no lane analysis (data-dependent address, missing size).
  std::string Unknown;
  /// Without the sizes the address needs (size-free analysis): the range of
  /// sizes the verdict holds for, e.g. "K ≥ 8", and the lane stride in
  /// elements as a formula, e.g. "K" (StrideElements is then 0).
  std::string ValidFor;
  std::string StrideFormula;
  /// Over those sizes, the most sectors a request takes when that varies
  /// (with the sizes' alignment); Sectors has the fewest. 0: it does not.
  unsigned MaxSectors = 0;
  /// The block shape the lanes were taken from when no launch gives one
  /// (AccessLaunch::BlockAssumption), e.g. "block (256,1,1) assumed:
  /// default for a kernel that uses only threadIdx.x".
  std::string BlockAssumption;
  /// The names the address needed and had no value for (missing sizes).
  std::vector<std::string> Missing;
  /// When each thread reads consecutive elements one per iteration of a
  /// counted loop and a wider access would do: the width that would (8 or
  /// 16 bytes), the elements it covers, and the loop's place (a file of its
  /// own: an access in a header's helper can be in a loop of the caller's).
  unsigned VectorBytes = 0;
  /// With VectorBytes: the bytes one thread's run covers over the loop.
  unsigned RunBytes = 0;
  SourceLoc LoopLoc;

  /// False when no thread of the launch executes the access.
  bool Reachable = true;
  /// Times the grid executes this access (with a launch).
  std::optional<uint64_t> GridExecutions;
  /// Reuse of a global load (with a launch): requested and distinct bytes
  /// over block (0,0,0) and over the grid.
  std::optional<uint64_t> BlockRequested, BlockDistinct;
  std::optional<uint64_t> GridRequested, GridDistinct;
  /// Thread and block coordinates that vary in the launch but not in the
  /// address: the threads (blocks) that differ only in them read the same
  /// elements.
  std::vector<std::string> SharedBy;
  /// How block (0,0,0) comes back to the load's sectors (set when every
  /// enclosing trip count is a constant).
  std::optional<ReuseShape> Reuse;
  /// The address does not change across iterations of an enclosing loop.
  bool SameThreadReuse = false;
  bool StagedInShared = false;
  /// The thread keeps the loaded value in a register for the iterations of
  /// a loop (reuse by the same thread only: other threads still re-read).
  bool StagedInRegisters = false;
  /// Global loads with a launch: what a tile would save.
  std::optional<TileSaving> Tile;
  /// Times each element is read over the grid (requested / distinct).
  std::optional<double> reuseFactor() const {
    if (!GridRequested || !GridDistinct || !*GridDistinct)
      return std::nullopt;
    return double(*GridRequested) / double(*GridDistinct);
  }
  /// Times each element is read within one block.
  std::optional<double> blockReuse() const {
    if (!BlockRequested || !BlockDistinct || !*BlockDistinct)
      return std::nullopt;
    return double(*BlockRequested) / double(*BlockDistinct);
  }

  const char *kind() const {
    return IsAtomic ? "atomic" : IsStore ? "store" : "load";
  }
  /// Sectors the distinct bytes would need at best.
  unsigned idealSectors() const;
};

/// Warp requests the grid makes for A (executions over the active lanes of
/// the analyzed warp); none without a launch.
std::optional<double> gridRequests(const AccessInfo &A);

/// dram_bytes.upper: every sector the grid's global requests touch, with no
/// reuse in any cache.
struct SectorTraffic {
  std::optional<uint64_t> Bytes;
  /// Why some accesses count their bytes rather than their sectors.
  std::string Partial;
};

/// Sector traffic of the grid: RequestedBytes (all global bytes, loads,
/// stores and atomics) with each analyzed access's requested bytes replaced
/// by the sectors its warp requests fetch, as judged from the first warp.
/// An access whose address depends on data counts one sector per lane.
SectorTraffic requestedSectorBytes(const std::vector<AccessInfo> &Accesses,
                                   uint64_t RequestedBytes);

/// The launch the access analysis looks at the first warp of: the kernel's
/// launch, or, when that has no block, an assumed one, in this order: the
/// kernel's __launch_bounds__ (MaxThreads in x, or 32 x MaxThreads/32 when
/// the kernel uses threadIdx.y), then 256 x 1 x 1, or 32 x 8 x 1 when it
/// uses threadIdx.y, 32 x 4 x 2 when it uses threadIdx.z. BlockAssumption
/// says which (empty when the launch gave the block).
struct AccessLaunch {
  KernelLaunch Launch;
  std::string BlockAssumption;
};
AccessLaunch accessLaunch(const KernelModel &M, const KernelLaunch &Launch,
                          std::optional<int64_t> MaxThreadsPerBlock);

/// Sizes tried when the address needs a size that has no value: every
/// value from 1 to 64, then 2^k - 1, 2^k and 2^k + 1 up to 2^20. The
/// samples from 2^16 on must agree on the verdict (the access class,
/// whether a global request takes more sectors than its bytes need, the
/// bytes and lanes; a shared request's bank conflict), or none is given;
/// for global requests they also give the range of sectors (alignment may
/// move it). The verdict is reported for the sizes from the smallest
/// sample on from which every sample agrees and has sectors in that range.
const std::vector<int64_t> &sizeSamples();

/// The distinct bytes block (0,0,0)'s global loads touch together: per
/// buffer the union of its loads' footprints (three loads of one row are
/// one row), summed over buffers. The working set the reuse pricing
/// (TileCost.h) compares with L1; none without a launch or past the
/// analysis budget.
std::optional<uint64_t>
blockLoadFootprint(const KernelModel &M, const KernelLaunch &Launch,
                   const std::map<std::string, int64_t> &Params);

/// Missing sizes (kernel parameters, gridDim/blockDim) are swept over
/// sizeSamples(), all of them at once (ValidFor).
std::vector<AccessInfo>
analyzeAccesses(const KernelModel &M, const AccessLaunch &Launch,
                const std::map<std::string, int64_t> &Params);

} // namespace roofline

#endif
