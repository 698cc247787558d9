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
  R.Class = R.Sectors <= Needed + 1 &&
                    R.BytesUsed == uint64_t(Starts.size()) * Width
                ? AccessClass::Coalesced
                : AccessClass::Irregular;
  return R;
}

BankReport roofline::analyzeSharedRequest(const LaneAddresses &A,
                                          unsigned Width) {
  BankReport R;
  // 4-byte accesses: one pass of 32 lanes; 8-byte: two of 16; 16-byte: four
  // of 8 (Nsight Compute's shared wavefronts).
  unsigned Phases = Width >= 16 ? 4 : Width >= 8 ? 2 : 1;
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
