//===- OccupancyTest.cpp - Blocks and warps per SM with registers ---------===//
//
// Part of cuda-roofline.
//
// residency with the registers per thread that ptxas reports, against
// numbers derived by hand from the rules of cuda_occupancy.h (CUDA 13.0):
// a warp's registers are regs x 32 rounded up to 256, each of the 4
// sub-partitions holds floor(16384 / that) warps; a block's shared memory
// is its bytes + 1 KB reserved (CC 8.0 on), rounded up to 128 B (256 B on
// 7.x). Without registers the estimate is the one before them.
//
//===----------------------------------------------------------------------===//

#include "CacheModel.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

const GpuSpec &gpu(const char *Id) {
  const GpuSpec *G = GpuDatabase::builtin().find(Id);
  if (!G) {
    ADD_FAILURE() << "no built-in GPU " << Id;
    static GpuSpec None;
    return None;
  }
  return *G;
}

Dim3 block(int64_t Threads) {
  Dim3 B;
  B.V = {Threads, 1, 1};
  return B;
}

struct Residency {
  unsigned BlocksPerSM;
  std::string Limiter;
};

Residency residencyOf(const GpuSpec &G, int64_t Threads, uint64_t Shared,
                      unsigned Registers) {
  CacheEstimate E;
  residency(G, block(Threads), Shared, E, Registers);
  EXPECT_EQ(E.BlocksPerWave, uint64_t(G.SMs) * E.BlocksPerSM);
  return {E.BlocksPerSM, E.Limiter};
}

} // namespace

// H100 SXM: 132 SMs, 2048 threads, 32 blocks, 233472 B shared and 65536
// registers per SM. A 256-thread block is 8 warps; 2048 / 256 = 8 blocks by
// threads.
TEST(Occupancy, H100RegistersPerThread) {
  const GpuSpec &H100 = gpu("h100-sxm");
  ASSERT_EQ(H100.RegistersPerSM, 65536u);
  ASSERT_EQ(H100.SMs, 132u);

  // Unknown registers: threads limit, 8 blocks.
  Residency R = residencyOf(H100, 256, 0, 0);
  EXPECT_EQ(R.BlocksPerSM, 8u);
  EXPECT_EQ(R.Limiter, "threads per SM");

  // 32 regs: 32 x 32 = 1024 per warp (a multiple of 256); 16384 / 1024 =
  // 16 warps per sub-partition, 64 per SM, 64 / 8 = 8 blocks: a tie with
  // threads, which stays the limiter.
  R = residencyOf(H100, 256, 0, 32);
  EXPECT_EQ(R.BlocksPerSM, 8u);
  EXPECT_EQ(R.Limiter, "threads per SM");

  // 64 regs: 2048 per warp; 16384 / 2048 = 8 warps per sub-partition, 32
  // per SM, 32 / 8 = 4 blocks.
  R = residencyOf(H100, 256, 0, 64);
  EXPECT_EQ(R.BlocksPerSM, 4u);
  EXPECT_EQ(R.Limiter, "registers per SM");

  // 128 regs: 4096 per warp; 4 warps per sub-partition, 16 per SM, 2 blocks.
  R = residencyOf(H100, 256, 0, 128);
  EXPECT_EQ(R.BlocksPerSM, 2u);
  EXPECT_EQ(R.Limiter, "registers per SM");

  // 255 regs: 255 x 32 = 8160, rounded up to 8192; 2 warps per
  // sub-partition, 8 per SM, 1 block.
  R = residencyOf(H100, 256, 0, 255);
  EXPECT_EQ(R.BlocksPerSM, 1u);
  EXPECT_EQ(R.Limiter, "registers per SM");
}

TEST(Occupancy, RegisterAllocationUnit) {
  const GpuSpec &H100 = gpu("h100-sxm");
  // 40 regs: 1280 per warp (5 x 256); floor(16384 / 1280) = floor(12.8) =
  // 12 warps per sub-partition, 48 per SM, 48 / 8 = 6 blocks.
  Residency R = residencyOf(H100, 256, 0, 40);
  EXPECT_EQ(R.BlocksPerSM, 6u);
  EXPECT_EQ(R.Limiter, "registers per SM");
  // 33 regs: 1056 per warp, rounded up to 1280: the same 6 blocks.
  EXPECT_EQ(residencyOf(H100, 256, 0, 33).BlocksPerSM, 6u);
  // 96 threads (3 warps), 72 regs: 2304 per warp (9 x 256); floor(16384 /
  // 2304) = floor(7.1) = 7 warps per sub-partition, 28 per SM, floor(28 / 3)
  // = 9 blocks (threads would allow floor(2048 / 96) = 21).
  R = residencyOf(H100, 96, 0, 72);
  EXPECT_EQ(R.BlocksPerSM, 9u);
  EXPECT_EQ(R.Limiter, "registers per SM");
}

TEST(Occupancy, SharedMemoryWithRegisters) {
  const GpuSpec &H100 = gpu("h100-sxm");
  // 48 KiB: 49152 + 1024 reserved = 50176 B (392 x 128); 233472 / 50176 =
  // 4.65 -> 4 blocks, as without registers (233472 / 49152 = 4.75 -> 4).
  Residency R = residencyOf(H100, 256, 49152, 32);
  EXPECT_EQ(R.BlocksPerSM, 4u);
  EXPECT_EQ(R.Limiter, "shared memory per SM");
  EXPECT_EQ(residencyOf(H100, 256, 49152, 0).BlocksPerSM, 4u);

  // 32 KiB: 32768 + 1024 = 33792 B; 233472 / 33792 = 6.9 -> 6 blocks (8 by
  // threads and by 32 registers). Without registers 233472 / 32768 = 7.1 ->
  // 7, the estimate before registers were known.
  R = residencyOf(H100, 256, 32768, 32);
  EXPECT_EQ(R.BlocksPerSM, 6u);
  EXPECT_EQ(R.Limiter, "shared memory per SM");
  R = residencyOf(H100, 256, 32768, 0);
  EXPECT_EQ(R.BlocksPerSM, 7u);
  EXPECT_EQ(R.Limiter, "shared memory per SM");
  // With 64 regs the registers' 4 blocks are fewer than shared memory's 6.
  R = residencyOf(H100, 256, 32768, 64);
  EXPECT_EQ(R.BlocksPerSM, 4u);
  EXPECT_EQ(R.Limiter, "registers per SM");

  // One warp, 7000 B: 8024 B rounded up to 128 B = 8064 (63 x 128);
  // 233472 / 8064 = 28.95 -> 28 blocks (threads and 32 registers allow 64,
  // blocks 32). Without registers 233472 / 7000 = 33.4: the 32-block limit.
  R = residencyOf(H100, 32, 7000, 32);
  EXPECT_EQ(R.BlocksPerSM, 28u);
  EXPECT_EQ(R.Limiter, "shared memory per SM");
  R = residencyOf(H100, 32, 7000, 0);
  EXPECT_EQ(R.BlocksPerSM, 32u);
  EXPECT_EQ(R.Limiter, "blocks per SM");
}

// V100 (7.0): 98304 B shared per SM, no reserved 1 KB, 256 B granularity.
TEST(Occupancy, VoltaSharedGranularity) {
  const GpuSpec &V100 = gpu("v100-sxm2");
  ASSERT_EQ(V100.SharedPerSMBytes, 98304u);
  // One warp, 7000 B: rounded up to 7168 (28 x 256); 98304 / 7168 = 13.7
  // -> 13 blocks. Without registers 98304 / 7000 = 14.04 -> 14.
  Residency R = residencyOf(V100, 32, 7000, 32);
  EXPECT_EQ(R.BlocksPerSM, 13u);
  EXPECT_EQ(R.Limiter, "shared memory per SM");
  EXPECT_EQ(residencyOf(V100, 32, 7000, 0).BlocksPerSM, 14u);
  // 6144 B is a multiple of 256 and nothing is reserved: 98304 / 6144 = 16
  // blocks either way.
  EXPECT_EQ(residencyOf(V100, 32, 6144, 32).BlocksPerSM, 16u);
  EXPECT_EQ(residencyOf(V100, 32, 6144, 0).BlocksPerSM, 16u);
}

TEST(Occupancy, RegistersNeedTheRegisterFile) {
  // A GPU file without registers_per_sm: registers do not limit, and the
  // shared memory is the plain bytes.
  GpuSpec G = gpu("h100-sxm");
  G.RegistersPerSM = 0;
  Residency R = residencyOf(G, 256, 32768, 128);
  EXPECT_EQ(R.BlocksPerSM, 7u);
  EXPECT_EQ(R.Limiter, "shared memory per SM");
  // An architecture outside 7.0-12.x likewise.
  G = gpu("h100-sxm");
  G.Arch = "sm_60";
  EXPECT_EQ(residencyOf(G, 256, 0, 128).BlocksPerSM, 8u);
}

TEST(Occupancy, ResidentWarps) {
  const GpuSpec &H100 = gpu("h100-sxm");
  // 8 blocks x 8 warps = 64, the SM's 2048 threads.
  EXPECT_EQ(residentWarpsPerSM(H100, block(256), 0), 64u);
  // 64 regs: 4 blocks x 8 warps = 32.
  EXPECT_EQ(residentWarpsPerSM(H100, block(256), 0, 64), 32u);
  // 96 threads, 72 regs: 9 blocks x 3 warps = 27 of the 28 the registers
  // hold.
  EXPECT_EQ(residentWarpsPerSM(H100, block(96), 0, 72), 27u);
  // A partial warp counts whole: 48 threads are 2 warps; threads allow
  // floor(2048 / 64) = 32 blocks, the block limit too: 64 warps.
  EXPECT_EQ(residentWarpsPerSM(H100, block(48), 0), 64u);
}
