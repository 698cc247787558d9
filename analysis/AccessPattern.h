//===- AccessPattern.h - Sectors and bank conflicts of one warp -*- C++ -*-===//
//
// What one warp-wide memory instruction costs, from the byte address each of
// its 32 lanes accesses: for global memory, the 32-byte sectors it touches
// (L1/L2 lines are 128 B = 4 sectors) and how many of the fetched bytes are
// used; for shared memory, the wavefronts it takes on the 32 banks of 4
// bytes. Hardware facts: shared/reference/gpu-specs.md, table 4.
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
  uint64_t BytesUsed = 0;    ///< Distinct bytes the lanes ask for.
  uint64_t BytesFetched = 0; ///< Sectors * 32.
  AccessClass Class = AccessClass::Irregular;
  /// Bytes between consecutive lanes when constant (Strided, Coalesced).
  int64_t LaneStride = 0;
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
  /// and a quarter warp per pass; conflicts add passes within each.
  unsigned Wavefronts = 0;
  /// Passes it would need without conflicts (1, 2 or 4 by width).
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

} // namespace roofline

#endif
