//===- AccessPattern.h - Sectors and bank conflicts of one warp -*- C++ -*-===//
//
// What one warp-wide memory instruction costs, from the byte address each of
// its 32 lanes accesses: for global memory, the 32-byte sectors it touches
// (L1/L2 lines are 128 B = 4 sectors) and how many of the fetched bytes are
// used; for shared memory, the wavefronts it takes on the 32 banks of 4
// bytes. Hardware facts (docs/counting.md): 32-byte sectors, CUDA C++ Best
// Practices Guide 10.2.1; 128-byte lines of 4 sectors, Nsight Compute
// Kernel Profiling Guide, "Quantities"; 32 banks of 4 bytes, CUDA C++
// Programming Guide (legacy) section 20.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_ACCESSPATTERN_H
#define CUDA_ROOFLINE_ACCESSPATTERN_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

constexpr unsigned WarpSize = 32;
constexpr unsigned SectorBytes = 32;
constexpr unsigned SectorsPerLine = 4;
constexpr unsigned SharedBanks = 32;
constexpr unsigned BankBytes = 4;

/// The byte address each lane of a warp accesses; inactive lanes are empty.
using LaneAddresses = std::array<std::optional<int64_t>, WarpSize>;

enum class AccessClass {
  Coalesced, ///< Consecutive lanes, consecutive elements.
  Broadcast, ///< Every active lane at the same address.
  Strided,   ///< A constant distance between lanes other than the width.
  Irregular  ///< No constant distance (or a data-dependent address).
};

/// "coalesced", "broadcast", "strided:S" (S in elements), "irregular".
std::string accessClassName(AccessClass C, int64_t StrideElements);

struct SectorReport {
  unsigned ActiveLanes = 0;
  unsigned Sectors = 0;      ///< Distinct 32-byte sectors touched.
  unsigned Lines = 0;        ///< Distinct 128-byte lines they are in.
  uint64_t BytesUsed = 0;    ///< Distinct bytes the lanes ask for.
  uint64_t BytesFetched = 0; ///< Sectors * 32.
  AccessClass Class = AccessClass::Irregular;
  /// Bytes between consecutive lanes when constant (Strided, Coalesced).
  int64_t LaneStride = 0;
  /// L1 data-stage passes (wavefronts) the request takes, a lower bound:
  /// the tag stage resolves 4 lines and 16 sectors a cycle, the data stage
  /// returns 128 bytes (docs/counting.md, "Wavefronts").
  unsigned wavefronts(unsigned Width) const;
  double efficiency() const {
    return BytesFetched ? double(BytesUsed) / double(BytesFetched) : 1.0;
  }
};

/// Sectors of one global request of Width bytes per lane (addresses are
/// absolute: base pointers are taken as 256-byte aligned by the caller).
/// The class is read from the first RowLanes lanes: with blockDim.x < 32 a
/// warp holds several rows of threadIdx.x, and the pattern is along a row.
SectorReport analyzeGlobalRequest(const LaneAddresses &A, unsigned Width,
                                  unsigned RowLanes = WarpSize);

struct BankReport {
  /// Passes the request needs: 8- and 16-byte accesses are served a half
  /// and a quarter warp per pass (a half warp for 16-byte accesses whose
  /// lane pairs n, n ^ 1 or n, n ^ 2 read the same bytes: their returns
  /// are packed); conflicts add passes within each.
  unsigned Wavefronts = 0;
  /// Passes it would need without conflicts (1, 2 or 4 by width and pairs).
  unsigned MinWavefronts = 0;
  /// Most distinct 4-byte words one bank serves in one pass (1 = none).
  unsigned Ways = 1;
  int Bank = -1;                        ///< That bank, if Ways > 1.
  std::vector<unsigned> CollidingLanes; ///< Lanes reading it there.
};

/// Bank conflicts of one shared-memory request of Width bytes per lane
/// (addresses relative to the start of shared memory; lanes reading the same
/// word are served by one broadcast).
BankReport analyzeSharedRequest(const LaneAddresses &A, unsigned Width);

/// A __shared__ array's shape, as advice on its bank conflicts needs it.
struct SharedLayout {
  /// Extents, outermost first: one for a 1-D array (0 for an extern one),
  /// none when the shape is not known.
  std::vector<uint64_t> Dims;
  unsigned ElementBytes = 0;
  /// The widest access of the array: a padded row must keep every access
  /// as aligned as it was.
  unsigned AlignBytes = 0;
  /// Bytes from one row (innermost dimension) to the next; 0 when the
  /// array has no rows (1-D, or shape unknown).
  uint64_t rowBytes() const {
    return Dims.size() >= 2 ? Dims.back() * ElementBytes : 0;
  }
};

/// The bytes around its address that a thread accesses in one go (through
/// one access and others next to it), [Begin, End) relative to the address.
struct ThreadRun {
  int64_t Begin = 0, End = 0;
};

/// Why the lanes of a conflicting request collide and what would separate
/// them, each fix checked by recomputing the request with it.
struct BankAdvice {
  SharedLayout Layout;
  /// Most distinct words one bank serves in one pass among lanes of one
  /// row: 1 when every colliding word is in another row (padding or a
  /// swizzle can move rows to other banks), more when words of one row
  /// collide (their distance in banks is fixed: padding cannot help).
  unsigned InRowWays = 1;
  /// Every colliding lane of Report (its worst bank) is in one row.
  bool CollidingInOneRow = false;

  /// Across rows: the smallest padding (elements per row) that gives the
  /// fewest wavefronts while keeping accesses aligned, and the request with
  /// it; 0 when no padding lowers the wavefronts.
  unsigned PadElements = 0;
  BankReport Padded;
  /// Across rows, when padding does not remove the conflict: an XOR
  /// swizzle that does better, element [r][c] at [r][c ^ ((r % Modulo) *
  /// Scale)], and the request with it; Modulo 0 when there is none.
  unsigned SwizzleModulo = 0, SwizzleScale = 1;
  BankReport Swizzled;

  /// Within a row: two lanes that collide there and the byte offsets in
  /// their row they access, and the bytes between consecutive lanes when
  /// that is constant from one to the other (0 if not).
  unsigned LaneA = 0, LaneB = 0;
  int64_t OffsetA = 0, OffsetB = 0;
  int64_t LaneStride = 0;
  /// The vector access covering the lane stride that removes the conflict
  /// (when the thread accesses those bytes: its ThreadRun), its request,
  /// and the row length in elements it needs to stay aligned (0: the
  /// rows already are).
  unsigned VectorBytes = 0;
  BankReport Vectorized;
  uint64_t VectorRowElements = 0;
  /// The request with consecutive lanes accessing consecutive elements.
  BankReport Consecutive;

  /// The conflict is only between rows of a 2-D array.
  bool acrossRows() const { return InRowWays <= 1 && Layout.rowBytes(); }
};

/// Classifies the conflict of request A (Width bytes per lane, Report its
/// banks) on an array of layout L, and recomputes it with each fix.
/// Run: the bytes around its address each thread accesses, for a vector
/// fix.
BankAdvice adviseBankConflict(const LaneAddresses &A, unsigned Width,
                              const BankReport &Report, const SharedLayout &L,
                              ThreadRun Run);

} // namespace roofline

#endif
