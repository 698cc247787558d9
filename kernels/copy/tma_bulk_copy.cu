// tma_bulk_copy.cu: out[i] = in[i] for N floats, moved by the Hopper bulk-copy
// (TMA) engine rather than by load and store instructions.
// compile-arch: sm_90a
//
// Each block copies one kTileBytes = 16 KiB tile (4096 floats) through shared
// memory. Thread 0 initializes an mbarrier for one arrival, makes the
// initialization visible to the async proxy, announces the tile's byte count
// (`mbarrier.arrive.expect_tx`) and issues one
// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes` global ->
// shared, whose completion is counted against that barrier. Every thread of
// the block waits on the barrier's phase 0 (`mbarrier.try_wait.parity` in a
// loop); thread 0 then writes the tile back with one
// `cp.async.bulk.global.shared::cta.bulk_group` shared -> global, commits the
// bulk group and waits for it before the block (and its shared memory) goes
// away. The size operand of both copies is the compile-time constant
// kTileBytes, passed as an "n" asm operand. The block has one warp: the other
// 31 lanes only wait.
//
// The launcher needs N to be a multiple of 4096 (whole tiles; the bulk copies
// need 16-byte-aligned addresses and sizes, which cudaMalloc'd buffers and
// whole tiles give).
//
// Hand-derived counts (what the hardware moves; thread 0 issues all of it):
//   Per thread: thread 0 (threadIdx.x == 0): global load 16384 B (1 bulk copy),
//     shared store 16384 B, shared load 16384 B, global store 16384 B (1 bulk
//     copy); threads 1-31: nothing. FLOPs: 0.
//   Per block (32 threads): global load 16384 B, global store 16384 B, shared
//     store 16384 B, shared load 16384 B.
//   Per grid (N / 4096 blocks): global load 4 N B, global store 4 N B, shared
//     store 4 N B, shared load 4 N B; FLOPs 0; dram compulsory 8 N B.
//   At N = 16777216 (4096 blocks): global load 67108864 B, store 67108864 B,
//     shared load and store 67108864 B each.

#include <cuda_runtime.h>
#include <stdint.h>

constexpr int kTmaTileFloats = 4096;
constexpr int kTmaTileBytes = kTmaTileFloats * 4;

__global__ void __launch_bounds__(32) tma_bulk_copy(const float *in, float *out, int N) {
  __shared__ __align__(128) float tile[kTmaTileFloats];
  __shared__ __align__(8) uint64_t bar;

  const uint32_t tileAddr = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  const uint32_t barAddr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  const size_t base = static_cast<size_t>(blockIdx.x) * kTmaTileFloats;

  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(barAddr) : "memory");
    // Make the initialized barrier visible to the async proxy (the TMA unit).
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barAddr),
                 "n"(kTmaTileBytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1], %2, [%3];\n" ::"r"(tileAddr),
                 "l"(in + base), "n"(kTmaTileBytes), "r"(barAddr)
                 : "memory");
  }

  // Phase 0 completes when the one arrival has happened and all kTileBytes
  // bytes have landed.
  asm volatile("{\n"
               "  .reg .pred done;\n"
               "wait_%=:\n"
               "  mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
               "  @!done bra wait_%=;\n"
               "}\n" ::"r"(barAddr)
               : "memory");

  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(out + base),
                 "r"(tileAddr), "n"(kTmaTileBytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
  }
}

// Returns false (launching nothing) unless N is a positive multiple of 4096.
bool launch_tma_bulk_copy(const float *in, float *out, int N) {
  if (N <= 0 || N % kTmaTileFloats != 0)
    return false;
  tma_bulk_copy<<<N / kTmaTileFloats, 32>>>(in, out, N);
  return true;
}
