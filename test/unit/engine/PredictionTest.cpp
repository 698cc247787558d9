//===- PredictionTest.cpp - Every resource's time, by hand ----------------===//
//
// Part of cuda-roofline.
//
// predictTime on counts and accesses written out in the test, each
// resource's work and time derived in a comment from the built-in GPU data
// (H100 SXM: 132 SMs at 1980 MHz, 3350 GB/s reaching 88.7%; RTX 4090: 128
// SMs at 2520 MHz, FP32 lanes shared with integer work on CC 8.9).
//
//===----------------------------------------------------------------------===//

#include "Prediction.h"
#include "Counters.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

const GpuSpec &gpu(const char *Id) {
  const GpuSpec *G = GpuDatabase::builtin().find(Id);
  EXPECT_NE(G, nullptr);
  return *G;
}

const ResourceTime *find(const Prediction &P, const std::string &Name) {
  for (const ResourceTime &R : P.Resources)
    if (R.Name == Name)
      return &R;
  return nullptr;
}

/// Known counts: 1 GB of DRAM estimate, no FLOPs.
RooflineMetrics known(double Dram) {
  RooflineMetrics M;
  M.Bound = "memory";
  M.Flops = 0;
  M.ComputeSeconds = 0;
  M.DramLower = M.DramEstimate = Dram;
  M.Seconds = Dram / 3350e9;
  M.SecondsUpper = M.Seconds;
  return M;
}

/// A global access of Width bytes: Requests warp requests of 32 lanes, each
/// touching Sectors sectors in Lines lines.
AccessInfo global(unsigned Width, uint64_t Requests, unsigned Sectors,
                  unsigned Lines, bool Store = false) {
  AccessInfo A;
  A.Space = MemSpace::Global;
  A.Width = Width;
  A.IsStore = Store;
  SectorReport S;
  S.ActiveLanes = 32;
  S.Sectors = Sectors;
  S.Lines = Lines;
  A.Sectors = S;
  A.GridExecutions = Requests * 32;
  return A;
}

TEST(Prediction, DramAtTheAchievableBandwidth) {
  KernelCounts KC;
  Prediction P = predictTime(KC, {}, known(1e9), gpu("h100-sxm"));
  // 1e9 B / (3350e9 * 0.887 B/s) = 336.54 us.
  ASSERT_TRUE(P.Seconds);
  EXPECT_NEAR(*P.Seconds, 1e9 / (3350e9 * 0.887), 1e-12);
  EXPECT_EQ(P.Limiter, "dram");
  // No instructions: the pipes are left out, and say why.
  KC.InstructionsWhy = "instruction counts need a launch";
  P = predictTime(KC, {}, known(1e9), gpu("h100-sxm"));
  ASSERT_FALSE(P.LeftOut.empty());
  EXPECT_NE(P.LeftOut.back().find("instruction counts need a launch"),
            std::string::npos);
}

TEST(Prediction, WavefrontsOfGlobalAndSharedRequests) {
  KernelCounts KC;
  // 1000 requests of 4-byte lanes 128 B apart: 32 sectors in 32 lines,
  // max(32/4, 32/16, 128/128) = 8 wavefronts each. 1000 float4 requests,
  // coalesced: 16 sectors in 4 lines, max(1, 1, 512/128) = 4 each. 1000
  // shared requests with a 4-way conflict: 4 each. 8000 + 4000 + 4000 =
  // 16000 wavefronts at 128/128 per SM per clock = 261.36e9/s.
  std::vector<AccessInfo> A = {global(4, 1000, 32, 32),
                               global(16, 1000, 16, 4)};
  AccessInfo S;
  S.Space = MemSpace::Shared;
  S.Width = 4;
  S.GridExecutions = 1000 * 32;
  BankReport B;
  B.Wavefronts = 4;
  B.MinWavefronts = 1;
  S.Banks = B;
  A.push_back(S);
  Prediction P = predictTime(KC, A, known(1), gpu("h100-sxm"));
  const ResourceTime *L1 = find(P, "l1_wavefronts");
  ASSERT_NE(L1, nullptr);
  EXPECT_EQ(L1->Work, 16000);
  EXPECT_NEAR(L1->Throughput, 132 * 1980e6, 1);
  EXPECT_EQ(L1->Title, "L1 wavefronts"); // 12000 global, 4000 shared.
  EXPECT_EQ(P.Limiter, "l1_wavefronts");
}

TEST(Prediction, BulkCopiesWriteSharedMemoryNotL1) {
  KernelCounts KC;
  // 4096 TMA copies of a 16384-byte tile, each issued by one thread: the
  // copy engine writes 16384 / 128 = 128 shared-memory wavefronts a copy,
  // 524288 in all, and the global end takes no L1 wavefront (as a one-lane
  // 16384-byte LSU access it would count 128 more each). 2000 coalesced
  // 4-byte requests beside them: 4 sectors in 1 line, 1 wavefront each.
  // 526288 wavefronts at 261.36e9/s = 2.0137 us.
  AccessInfo Tile = global(16384, 0, 512, 128);
  Tile.Bulk = true;
  Tile.Sectors->ActiveLanes = 1;
  Tile.GridExecutions = 4096;
  std::vector<AccessInfo> A = {Tile, global(4, 2000, 4, 1)};
  Prediction P = predictTime(KC, A, known(1), gpu("h100-sxm"));
  const ResourceTime *L1 = find(P, "l1_wavefronts");
  ASSERT_NE(L1, nullptr);
  EXPECT_EQ(L1->Work, 4096 * 128 + 2000);
  EXPECT_EQ(L1->Title, "shared-memory wavefronts");
  EXPECT_NEAR(L1->Seconds, 526288 / (132 * 1980e6), 1e-12);
  EXPECT_NE(L1->Detail.find("bulk copies"), std::string::npos);
}

TEST(Prediction, L2BytesAfterL1Reuse) {
  // The A100 80GB has an L2 figure (5200 GB/s). A load whose grid requests
  // fetch 1000 * 4 sectors = 128000 B, of which each of the 10 blocks'
  // distinct 4096 B come once and L1 loses 20000 B of re-reads: 40960 +
  // 20000 = 60960 B. A store of 1000 requests, 4 sectors each: 128000 B.
  AccessInfo Load = global(4, 1000, 4, 1);
  Load.BlockRequested = 12800;
  Load.GridRequested = 128000;
  Load.BlockDistinct = 4096;
  TileSaving T;
  T.L2Bytes = 20000;
  Load.Tile = T;
  AccessInfo Store = global(4, 1000, 4, 1, /*Store=*/true);
  Prediction P = predictTime(KernelCounts(), {Load, Store}, known(1),
                             gpu("a100-80gb-sxm"));
  const ResourceTime *L2 = find(P, "l2");
  ASSERT_NE(L2, nullptr);
  EXPECT_EQ(L2->Work, 60960 + 128000);
  EXPECT_EQ(L2->Throughput, 5200e9);
  // The H100 SXM has no L2 figure: left out, not guessed.
  P = predictTime(KernelCounts(), {Load, Store}, known(1), gpu("h100-sxm"));
  EXPECT_EQ(find(P, "l2"), nullptr);
  ASSERT_FALSE(P.LeftOut.empty());
  EXPECT_NE(P.LeftOut.front().find("h100-sxm"), std::string::npos);
}

TEST(Prediction, PipesAndIssue) {
  KernelCounts KC;
  // 2^30 FFMAs and 2^29 integer instructions, all issued: 1.5 * 2^30
  // thread instructions = 50331648 warp instructions.
  KC.Instructions[counter::InstFp32] = Rational(int64_t(1) << 30);
  KC.Instructions[counter::InstFma] = Rational(int64_t(1) << 30);
  KC.Instructions[counter::InstAlu] = Rational(int64_t(1) << 29);
  KC.Instructions[counter::InstIssue] = Rational(3 * (int64_t(1) << 29));
  // H100: FP32 128 lanes * 132 * 1.98e9 = 33.454e12/s: 32.10 us; integer
  // 64 lanes: 16.7e12/s, 2^29 / that = 32.10 us as well; issue 4 * 132 *
  // 1.98e9 = 1.04544e12/s: 48.14 us, the limiter, 1.5 per FMA (warp
  // instructions per warp FMA). The pipes are apart on CC 9.0.
  Prediction P = predictTime(KC, {}, known(1), gpu("h100-sxm"));
  EXPECT_EQ(P.Limiter, "issue");
  ASSERT_TRUE(P.Seconds);
  EXPECT_NEAR(*P.Seconds, 50331648 / 1.04544e12, 1e-12);
  EXPECT_DOUBLE_EQ(P.limiter()->PerFma, 1.5);
  EXPECT_EQ(predictionLimiter(P), "instruction issue (1.5 per FMA)");
  EXPECT_EQ(find(P, "fp32_int32"), nullptr);
  // RTX 4090 (CC 8.9): integer work takes FP32 lanes too: 1.5 * 2^30 at
  // 128 * 128 * 2.52e9 = 41.29e12/s = 39.0 us, beside FP32 alone 26.0 us.
  P = predictTime(KC, {}, known(1), gpu("rtx-4090"));
  const ResourceTime *Shared = find(P, "fp32_int32");
  ASSERT_NE(Shared, nullptr);
  EXPECT_EQ(Shared->Work, 1.5 * (int64_t(1) << 30));
  EXPECT_NEAR(Shared->Seconds, 1.5 * (int64_t(1) << 30) / (128 * 128 * 2.52e9),
              1e-12);
}

TEST(Prediction, LatencyFromTheWarpsInFlight) {
  // 4 warps in flight on the whole GPU (a grid of 2 blocks of 64 threads),
  // each thread 1024 rounds of global loads: 4096 warp rounds. 512 KiB
  // loaded, 256 KiB of it from DRAM: a round takes L2's 291 cycles plus
  // half of DRAM's extra (700 - 291) / 2 = 204.5, 495.5 cycles. Little's
  // law: 4 rounds in flight every 495.5 / 1.98e9 s, so 4096 rounds take
  // 4096 * 495.5 / (4 * 1.98e9) = 256.26 us.
  KernelCounts KC;
  KC.Instructions[counter::InstLoadRounds] = Rational(128 * 1024);
  KC.Instructions[counter::InstIssue] = Rational(128 * 1024);
  KC.Occ = occupancy(gpu("h100-sxm"), Dim3{{2, 1, 1}}, Dim3{{64, 1, 1}}, 0, 32);
  EXPECT_EQ(KC.Occ.WarpsPerSM, 64u); // 32 blocks of 2 warps: blocks per SM
  EXPECT_EQ(KC.Occ.WarpsInFlight, 4u);
  RooflineMetrics M = known(256 * 1024);
  // 1024 requests of 32 lanes, 4 bytes each, coalesced: 128 B a request.
  std::vector<AccessInfo> A = {global(4, 4096, 4, 1)};
  Prediction P = predictTime(KC, A, M, gpu("h100-sxm"));
  const ResourceTime *L = find(P, "latency");
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->Work, 4096);
  EXPECT_NEAR(L->Seconds, 4096 * 495.5 / (4 * 1.98e9), 1e-12);
  EXPECT_EQ(P.Limiter, "latency");
  EXPECT_NE(L->Detail.find("4 warps in flight (64 of 64 per SM"),
            std::string::npos)
      << L->Detail;
  // A full GPU hides the same rounds: 132 * 64 warps in flight.
  KC.Occ =
      occupancy(gpu("h100-sxm"), Dim3{{2000, 1, 1}}, Dim3{{256, 1, 1}}, 0, 32);
  EXPECT_EQ(KC.Occ.WarpsInFlight, 132u * 64);
  P = predictTime(KC, A, M, gpu("h100-sxm"));
  ASSERT_NE(find(P, "latency"), nullptr);
  EXPECT_NEAR(find(P, "latency")->Seconds, 4096 * 495.5 / (8448 * 1.98e9),
              1e-15);
  // The H100 PCIe without its DRAM figure: L2's 265.5 cycles alone, a
  // bound still: 4096 * 265.5 / (114 * 64 warps * 1.755e9).
  GpuSpec NoDram = gpu("h100-pcie");
  NoDram.Pipes.LatencyCycles.erase("dram");
  KC.Occ = occupancy(NoDram, Dim3{{2000, 1, 1}}, Dim3{{256, 1, 1}}, 0, 32);
  P = predictTime(KC, A, M, NoDram);
  ASSERT_NE(find(P, "latency"), nullptr);
  EXPECT_NEAR(find(P, "latency")->Seconds, 4096 * 265.5 / (114 * 64 * 1.755e9),
              1e-15);
  EXPECT_NE(find(P, "latency")->Detail.find("DRAM unknown, taken as L2's"),
            std::string::npos);
  // The A10's data has no L2 latency: said, not guessed.
  P = predictTime(KC, A, M, gpu("a10"));
  EXPECT_EQ(find(P, "latency"), nullptr);
  bool Said = false;
  for (const std::string &S : P.LeftOut)
    Said |= S.find("no L2 latency for a10") != std::string::npos;
  EXPECT_TRUE(Said);
}

TEST(Prediction, BarrierRoundsThenTheBlocksOwnWork) {
  // 264 blocks of 256 threads (8 warps) at 200 registers a thread: a warp
  // takes 200 * 32 = 6400 registers, 2 warps fit a sub-partition's 16384,
  // so 8 warps and 1 block per SM, 1056 warps in flight on 132 SMs. Each
  // thread waits at a barrier for 100 rounds of loads: 264 * 8 * 100 =
  // 211200 warp rounds, 291 cycles each (L2's; no bytes from DRAM).
  // Little's law alone: 211200 * 291 / (1056 * 1.98e9) = 29.394 us. The
  // issue slots: 104544000 warp instructions at 132 * 4 * 1.98e9 a second
  // = 100 us. No warp passes the barrier before its loads arrive, and no
  // other block is resident to fill the wait: 29.394 + 100 / 1 us.
  KernelCounts KC;
  double ThreadRounds = 264.0 * 256 * 100;
  KC.Instructions[counter::InstLoadRounds] = Rational(int64_t(ThreadRounds));
  KC.Instructions[counter::InstBarrierRounds] = Rational(int64_t(ThreadRounds));
  KC.Instructions[counter::InstIssue] = Rational(int64_t(104544000) * 32);
  const GpuSpec &H100 = gpu("h100-sxm");
  KC.Occ = occupancy(H100, Dim3{{264, 1, 1}}, Dim3{{256, 1, 1}}, 0, 200);
  ASSERT_EQ(KC.Occ.BlocksPerSM, 1u);
  ASSERT_EQ(KC.Occ.WarpsInFlight, 1056u);
  Prediction P = predictTime(KC, {}, known(0), H100);
  double Wait = 211200 * 291 / (1056 * 1.98e9);
  const ResourceTime *B = find(P, "barrier_latency");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Work, 211200);
  EXPECT_NEAR(B->Seconds, Wait + 100e-6, 1e-12);
  EXPECT_EQ(B->Title, "memory latency at barriers (1 block per SM)");
  EXPECT_EQ(P.Limiter, "barrier_latency");
  EXPECT_NEAR(find(P, "latency")->Seconds, Wait, 1e-12);
  // At 128 registers a warp takes 4096: 4 warps a sub-partition, 2 blocks
  // per SM, every warp in flight: 14.697 us of rounds, then half the issue
  // time, 64.697 us, under the issue slots' 100 us.
  KC.Occ = occupancy(H100, Dim3{{264, 1, 1}}, Dim3{{256, 1, 1}}, 0, 128);
  ASSERT_EQ(KC.Occ.BlocksPerSM, 2u);
  P = predictTime(KC, {}, known(0), H100);
  ASSERT_NE(find(P, "barrier_latency"), nullptr);
  EXPECT_NEAR(find(P, "barrier_latency")->Seconds,
              211200 * 291 / (2112 * 1.98e9) + 50e-6, 1e-12);
  EXPECT_EQ(P.Limiter, "issue");
  // Rounds no barrier waits for (a prefetch) leave only Little's law.
  KC.Instructions.erase(counter::InstBarrierRounds);
  P = predictTime(KC, {}, known(0), H100);
  EXPECT_EQ(find(P, "barrier_latency"), nullptr);
}

TEST(Prediction, TheBusiestSMSetsTheSMsResources) {
  // 1024 blocks of 256 threads on the H100's 132 SMs: 1024 = 7 * 132 + 100,
  // so 100 SMs run 8 blocks and 32 run 7. The launch lasts as long as an SM
  // with 8 works: 8 * 132 / 1024 = 1.03125 times the even share. Issue:
  // 2^30 warp instructions at 132 * 4 * 1.98e9 = 1.04544e12 a second are
  // 1027.1 us evenly, 1059.2 us on the busiest SM. DRAM serves every SM:
  // 1e9 B at 3350e9 * 0.887 B/s, 336.54 us either way.
  KernelCounts KC;
  KC.Instructions[counter::InstIssue] = Rational((int64_t(1) << 30) * 32);
  const GpuSpec &H100 = gpu("h100-sxm");
  KC.Occ = occupancy(H100, Dim3{{1024, 1, 1}}, Dim3{{256, 1, 1}}, 0, 32);
  EXPECT_EQ(KC.Occ.Blocks, 1024u);
  EXPECT_EQ(KC.Occ.BusiestSMBlocks, 8u);
  Prediction P = predictTime(KC, {}, known(1e9), H100);
  const ResourceTime *Issue = find(P, "issue");
  ASSERT_NE(Issue, nullptr);
  double Even = double(int64_t(1) << 30) / 1.04544e12;
  EXPECT_NEAR(Issue->Seconds, Even * 1.03125, 1e-12);
  EXPECT_NEAR(Issue->Throughput, 1.04544e12 / 1.03125, 1e3);
  EXPECT_NE(Issue->Detail.find("the busiest SM runs 8 of the 1024 blocks "
                               "(7.758 an SM on average)"),
            std::string::npos)
      << Issue->Detail;
  ASSERT_NE(find(P, "dram"), nullptr);
  EXPECT_NEAR(find(P, "dram")->Seconds, 1e9 / (3350e9 * 0.887), 1e-12);
  EXPECT_EQ(P.Limiter, "issue");
  // 4 blocks use 4 SMs: the same instructions take 132 / 4 = 33 times the
  // even share, 33.894 ms.
  KC.Occ = occupancy(H100, Dim3{{4, 1, 1}}, Dim3{{256, 1, 1}}, 0, 32);
  P = predictTime(KC, {}, known(1e9), H100);
  EXPECT_NEAR(find(P, "issue")->Seconds, Even * 33, 1e-9);
  // A grid the SMs divide evenly, and no grid at all: the even share.
  KC.Occ = occupancy(H100, Dim3{{264, 1, 1}}, Dim3{{256, 1, 1}}, 0, 32);
  P = predictTime(KC, {}, known(1e9), H100);
  EXPECT_NEAR(find(P, "issue")->Seconds, Even, 1e-12);
  KC.Occ = Occupancy();
  P = predictTime(KC, {}, known(1e9), H100);
  EXPECT_NEAR(find(P, "issue")->Seconds, Even, 1e-12);
}

TEST(Prediction, NeverBelowTheSpeedOfLightAndNoneWithoutCounts) {
  // No resource with work: the speed of light is the time.
  RooflineMetrics M = known(0);
  M.DramLower = M.DramEstimate = std::nullopt;
  M.Seconds = 1e-3;
  Prediction P = predictTime(KernelCounts(), {}, M, gpu("h100-sxm"));
  ASSERT_TRUE(P.Seconds);
  EXPECT_EQ(*P.Seconds, 1e-3);
  EXPECT_EQ(P.Limiter, "speed_of_light");
  EXPECT_EQ(predictionLimiter(P), "the speed of light");
  // Unknown counts: no prediction, and the reason.
  RooflineMetrics U;
  U.Bound = "unknown";
  U.Note = "counts with unknowns have no speed of light";
  P = predictTime(KernelCounts(), {}, U, gpu("h100-sxm"));
  EXPECT_FALSE(P.Seconds);
  EXPECT_EQ(P.Why, U.Note);
}

} // namespace
