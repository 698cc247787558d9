//===- AccessPattern.cpp --------------------------------------------------===//

#include "AccessPattern.h"

#include <algorithm>
#include <map>
#include <set>

using namespace roofline;

std::string roofline::accessClassName(AccessClass C, int64_t StrideElements) {
  switch (C) {
  case AccessClass::Coalesced:
    return "coalesced";
  case AccessClass::Broadcast:
    return "broadcast";
  case AccessClass::Strided:
    return "strided:" + std::to_string(StrideElements);
  case AccessClass::Irregular:
    break;
  }
  return "irregular";
}

static int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && (A < 0) != (B < 0)) ? Q - 1 : Q;
}

unsigned SectorReport::wavefronts(unsigned Width) const {
  auto Ceil = [](uint64_t N, uint64_t D) { return unsigned((N + D - 1) / D); };
  return std::max({Ceil(Lines, 4), Ceil(Sectors, 16),
                   Ceil(uint64_t(ActiveLanes) * Width, 128), 1u});
}

SectorReport roofline::analyzeGlobalRequest(const LaneAddresses &A,
                                            unsigned Width, unsigned RowLanes) {
  SectorReport R;
  std::set<int64_t> Sectors;
  // Distinct bytes as merged [lo, hi) ranges.
  std::vector<std::pair<int64_t, int64_t>> Ranges;
  std::vector<int64_t> Active;
  for (unsigned L = 0; L < WarpSize; ++L) {
    const auto &Addr = A[L];
    if (!Addr)
      continue;
    if (L < std::max(RowLanes, 1u))
      Active.push_back(*Addr);
    Ranges.emplace_back(*Addr, *Addr + Width);
    for (int64_t S = floorDiv(*Addr, SectorBytes),
                 E = floorDiv(*Addr + Width - 1, SectorBytes);
         S <= E; ++S)
      Sectors.insert(S);
  }
  R.ActiveLanes = Ranges.size();
  R.Sectors = Sectors.size();
  std::set<int64_t> Lines;
  for (int64_t S : Sectors)
    Lines.insert(floorDiv(S, int64_t(SectorsPerLine)));
  R.Lines = Lines.size();
  R.BytesFetched = uint64_t(R.Sectors) * SectorBytes;
  std::sort(Ranges.begin(), Ranges.end());
  int64_t End = INT64_MIN;
  for (auto [Lo, Hi] : Ranges) {
    Lo = std::max(Lo, End);
    if (Hi > Lo)
      R.BytesUsed += uint64_t(Hi - Lo);
    End = std::max(End, Hi);
  }
  if (Active.size() <= 1) {
    R.Class = AccessClass::Coalesced;
    return R;
  }
  // Neighbouring lanes reading the same element (a 16x16 block's warp is
  // two rows of 16 lanes) share it; the pattern is in the distinct ones.
  Active.erase(std::unique(Active.begin(), Active.end()), Active.end());
  if (Active.size() == 1) {
    R.Class = AccessClass::Broadcast;
    return R;
  }
  // A constant distance between consecutive lanes, over the whole row or
  // at least its first 8 distinct addresses (a warp of a 1-D block can
  // span two rows of a 2-D thread layout: lanes 0-15 and 16-31).
  int64_t Stride = Active[1] - Active[0];
  size_t Run = 2;
  while (Run < Active.size() && Active[Run] - Active[Run - 1] == Stride)
    ++Run;
  bool Uniform = Run == Active.size() || Run >= 8;
  if (Uniform && Stride != 0) {
    R.LaneStride = Stride;
    // Lanes walking backwards through consecutive elements are as good.
    R.Class = Stride == int64_t(Width) || Stride == -int64_t(Width)
                  ? AccessClass::Coalesced
                  : AccessClass::Strided;
    return R;
  }
  // Lanes permuted within a contiguous run still fetch no extra sector.
  uint64_t Needed = (R.BytesUsed + SectorBytes - 1) / SectorBytes;
  std::set<int64_t> Starts;
  for (auto &Rg : Ranges)
    Starts.insert(Rg.first);
  R.Class =
      R.Sectors <= Needed + 1 && R.BytesUsed == uint64_t(Starts.size()) * Width
          ? AccessClass::Coalesced
          : AccessClass::Irregular;
  return R;
}

// Whether every active lane n reads what lane n ^ 1 reads, or every one
// what lane n ^ 2 reads (an inactive partner breaks the pair).
static bool uniformPairs(const LaneAddresses &A) {
  for (unsigned Mask : {1u, 2u}) {
    bool Pairs = true, Any = false;
    for (unsigned L = 0; L < WarpSize && Pairs; ++L) {
      if (!A[L])
        continue;
      Any = true;
      Pairs = A[L ^ Mask] && *A[L ^ Mask] == *A[L];
    }
    if (Pairs && Any)
      return true;
  }
  return false;
}

BankReport roofline::analyzeSharedRequest(const LaneAddresses &A,
                                          unsigned Width) {
  BankReport R;
  // 4-byte accesses: one pass of 32 lanes; 8-byte: two of 16; 16-byte: four
  // of 8 (Nsight Compute's shared wavefronts), or two of 16 when lane pairs
  // read the same 16 bytes: their returns are packed.
  unsigned Phases = Width >= 16  ? (uniformPairs(A) ? 2 : 4)
                    : Width >= 8 ? 2
                                 : 1;
  unsigned PerPhase = WarpSize / Phases;
  unsigned Words = std::max(1u, Width / BankBytes);
  for (unsigned P = 0; P < Phases; ++P) {
    std::map<int, std::map<int64_t, std::vector<unsigned>>> ByBank;
    bool Any = false;
    for (unsigned L = P * PerPhase; L < (P + 1) * PerPhase; ++L) {
      if (!A[L])
        continue;
      Any = true;
      for (unsigned W = 0; W < Words; ++W) {
        int64_t Word = floorDiv(*A[L], BankBytes) + W;
        int Bank = int(((Word % SharedBanks) + SharedBanks) % SharedBanks);
        ByBank[Bank][Word].push_back(L);
      }
    }
    if (!Any)
      continue;
    ++R.MinWavefronts;
    unsigned Worst = 1;
    for (auto &[Bank, WordsOfBank] : ByBank) {
      unsigned N = WordsOfBank.size();
      Worst = std::max(Worst, N);
      if (N > R.Ways) {
        R.Ways = N;
        R.Bank = Bank;
        R.CollidingLanes.clear();
        for (auto &[Word, Lanes] : WordsOfBank)
          R.CollidingLanes.push_back(Lanes.front());
      }
    }
    R.Wavefronts += Worst;
  }
  return R;
}

// The lanes of A, each address moved by F; inactive lanes stay inactive.
template <typename Fn>
static LaneAddresses mapLanes(const LaneAddresses &A, Fn F) {
  LaneAddresses Out;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (A[L])
      Out[L] = F(L, *A[L]);
  return Out;
}

static bool isPowerOfTwo(uint64_t X) { return X && !(X & (X - 1)); }

/// The row of byte address Addr in rows of Pitch bytes. A 1-D array
/// (Pitch 0) is one row: nothing moves one part of it against another.
static int64_t rowOf(int64_t Addr, int64_t Pitch) {
  return Pitch ? floorDiv(Addr, Pitch) : 0;
}

/// The worst conflict among lanes of one row, each row's lanes alone, and
/// that row (Row): padding shifts a whole row by the same number of banks,
/// so these stay.
static BankReport worstInRow(const LaneAddresses &A, unsigned Width,
                             int64_t Pitch, int64_t &Row) {
  std::set<int64_t> Rows;
  for (const auto &Addr : A)
    if (Addr)
      Rows.insert(rowOf(*Addr, Pitch));
  BankReport InRow;
  Row = 0;
  for (int64_t R : Rows) {
    BankReport B = analyzeSharedRequest(
        mapLanes(A,
                 [&](unsigned, int64_t Addr) -> std::optional<int64_t> {
                   if (rowOf(Addr, Pitch) != R)
                     return std::nullopt;
                   return Addr;
                 }),
        Width);
    if (B.Ways > InRow.Ways) {
      InRow = B;
      Row = R;
    }
  }
  return InRow;
}

/// Every padding up to 128 bytes (a full turn of the banks) that keeps
/// rows as aligned as the widest access needs: the one with the fewest
/// wavefronts into Adv, and the best request with or without it.
static BankReport padRows(const LaneAddresses &A, unsigned Width,
                          const BankReport &Report, const SharedLayout &L,
                          int64_t Pitch, BankAdvice &Adv) {
  unsigned Align = std::max(L.AlignBytes, Width);
  BankReport Best = Report;
  for (unsigned P = 1; uint64_t(P) * L.ElementBytes < SharedBanks * BankBytes;
       ++P) {
    if (P * L.ElementBytes % Align)
      continue;
    int64_t Padded = Pitch + int64_t(P) * L.ElementBytes;
    BankReport B =
        analyzeSharedRequest(mapLanes(A,
                                      [&](unsigned, int64_t Addr) {
                                        int64_t R = rowOf(Addr, Pitch);
                                        return R * Padded + (Addr - R * Pitch);
                                      }),
                             Width);
    if (B.Wavefronts < Best.Wavefronts) {
      Best = B;
      Adv.PadElements = P;
    }
  }
  if (Adv.PadElements)
    Adv.Padded = Best;
  return Best;
}

/// Without padding, an XOR of the column with the row permutes each row's
/// units: in units of the widest access of the array, which stays whole,
/// and a power-of-two number of them per row. Into Adv if it beats Best.
static void swizzleRows(const LaneAddresses &A, unsigned Width,
                        const SharedLayout &L, int64_t Pitch,
                        const BankReport &Best, BankAdvice &Adv) {
  unsigned U = std::max(L.AlignBytes, Width);
  if (U % L.ElementBytes || !isPowerOfTwo(U / L.ElementBytes) || Pitch % U ||
      !isPowerOfTwo(uint64_t(Pitch / U)) || Pitch / U < 2)
    return;
  int64_t Units = Pitch / U;
  int64_t PlaneRows = int64_t(L.Dims[L.Dims.size() - 2]);
  BankReport B = analyzeSharedRequest(
      mapLanes(A,
               [&](unsigned, int64_t Addr) {
                 int64_t R = rowOf(Addr, Pitch), Col = Addr - R * Pitch;
                 int64_t Key = (PlaneRows ? R % PlaneRows : R) % Units;
                 return R * Pitch + ((Col / U) ^ Key) * U + Col % U;
               }),
      Width);
  if (B.Wavefronts < Best.Wavefronts) {
    Adv.SwizzleModulo = unsigned(Units);
    Adv.SwizzleScale = U / L.ElementBytes;
    Adv.Swizzled = B;
  }
}

/// Within row Row: the first two lanes that collide there, and whether the
/// row's lanes are evenly spaced (a pattern, not just those two lanes).
static void rowLaneStride(const LaneAddresses &A, const BankReport &InRow,
                          int64_t Row, int64_t Pitch, BankAdvice &Adv) {
  std::vector<unsigned> Colliding = InRow.CollidingLanes;
  std::sort(Colliding.begin(), Colliding.end());
  Adv.LaneA = Colliding[0];
  Adv.LaneB = Colliding[1];
  Adv.OffsetA = *A[Adv.LaneA] - Row * Pitch;
  Adv.OffsetB = *A[Adv.LaneB] - Row * Pitch;
  std::vector<std::pair<int64_t, int64_t>> RowLanes; // (lane, address)
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (A[Lane] && rowOf(*A[Lane], Pitch) == Row)
      RowLanes.push_back({Lane, *A[Lane]});
  int64_t Span = RowLanes.back().second - RowLanes.front().second;
  int64_t Steps = RowLanes.back().first - RowLanes.front().first;
  if (Steps > 0 && Span % Steps == 0) {
    Adv.LaneStride = Span / Steps;
    for (auto [Lane, Addr] : RowLanes)
      if (Addr != RowLanes.front().second +
                      (Lane - RowLanes.front().first) * Adv.LaneStride)
        Adv.LaneStride = 0;
  }
}

/// One vector access per thread covering the gap to the next lane, if the
/// thread accesses those bytes anyway: it starts where the vector is
/// aligned, the same place in every lane's run (the lanes are evenly
/// spaced by the vector's size), at or before the lane's address. Rows that
/// are not a multiple of it are rounded up.
static void adviseVector(const LaneAddresses &A, unsigned Width,
                         const SharedLayout &L, int64_t Pitch, ThreadRun Run,
                         BankAdvice &Adv) {
  int64_t V = Adv.LaneStride < 0 ? -Adv.LaneStride : Adv.LaneStride;
  if (!(V == 8 || V == 16) || V <= int64_t(Width) ||
      !(!Pitch || L.ElementBytes))
    return;
  int64_t Shift = -(((Adv.OffsetA % V) + V) % V);
  int64_t VPitch = (Pitch + V - 1) / V * V;
  bool Aligned = true;
  for (const auto &Addr : A)
    Aligned = Aligned &&
              (!Addr || (*Addr - rowOf(*Addr, Pitch) * Pitch + Shift) % V == 0);
  if (!Aligned || Shift < Run.Begin || Shift + V > Run.End ||
      !(VPitch == Pitch || VPitch % L.ElementBytes == 0))
    return;
  BankReport B = analyzeSharedRequest(
      mapLanes(A,
               [&](unsigned, int64_t Addr) {
                 int64_t R = rowOf(Addr, Pitch);
                 return R * VPitch + (Addr - R * Pitch) + Shift;
               }),
      unsigned(V));
  if (B.Wavefronts <= B.MinWavefronts) {
    Adv.VectorBytes = unsigned(V);
    Adv.Vectorized = B;
    if (VPitch != Pitch)
      Adv.VectorRowElements = uint64_t(VPitch) / L.ElementBytes;
  }
}

/// The request with consecutive lanes on consecutive elements from the
/// first lane's: the conflict-free layout to compare with.
static BankReport consecutiveLanes(const LaneAddresses &A, unsigned Width) {
  std::optional<unsigned> First;
  for (unsigned Lane = 0; Lane < WarpSize && !First; ++Lane)
    if (A[Lane])
      First = Lane;
  int64_t Start = *A[*First];
  return analyzeSharedRequest(mapLanes(A,
                                       [&](unsigned Lane, int64_t) {
                                         return Start +
                                                int64_t(Lane - *First) * Width;
                                       }),
                              Width);
}

BankAdvice roofline::adviseBankConflict(const LaneAddresses &A, unsigned Width,
                                        const BankReport &Report,
                                        const SharedLayout &L, ThreadRun Run) {
  BankAdvice Adv;
  Adv.Layout = L;
  const int64_t Pitch = int64_t(L.rowBytes());
  int64_t InRowRow = 0;
  BankReport InRow = worstInRow(A, Width, Pitch, InRowRow);
  Adv.InRowWays = InRow.Ways;
  const std::vector<unsigned> &Worst = Report.CollidingLanes;
  Adv.CollidingInOneRow =
      !Worst.empty() && A[Worst.front()] &&
      std::all_of(Worst.begin(), Worst.end(), [&](unsigned Lane) {
        return A[Lane] &&
               rowOf(*A[Lane], Pitch) == rowOf(*A[Worst.front()], Pitch);
      });

  if (Adv.acrossRows()) {
    BankReport Best = padRows(A, Width, Report, L, Pitch, Adv);
    if (Best.Wavefronts > Report.MinWavefronts)
      swizzleRows(A, Width, L, Pitch, Best, Adv);
    return Adv;
  }
  rowLaneStride(A, InRow, InRowRow, Pitch, Adv);
  adviseVector(A, Width, L, Pitch, Run, Adv);
  Adv.Consecutive = consecutiveLanes(A, Width);
  return Adv;
}
