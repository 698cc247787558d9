// cp_async_bf16.cu: mixed-precision GEMM on tensor cores written the way
// Ampere-class kernels are, C = alpha * A * B + beta * C with A (M x K) and
// B (K x N) in bf16 and C (M x N) in fp32, all row-major.
// compile-arch: sm_80
//
// A block of 8 warps computes a BM x BN = 128 x 128 tile of C; warp (warpRow,
// warpCol) owns a WM x WN = 64 x 32 warp tile of 4 x 4 m16n8 fp32 accumulator
// tiles. The K loop is software-pipelined over two shared-memory stages: while
// the warps multiply stage s, the next BK = 32 slice of A and B is already in
// flight into stage s ^ 1 as 16-byte `cp.async.cg.shared.global` copies (inline
// PTX, destination from __cvta_generic_to_shared), one commit group per slice,
// `cp.async.wait_group 1` before a stage is used. Operand registers come from
// shared memory through `ldmatrix.sync.aligned.m8n8.x4.shared.b16`: A (stored
// As[m][k]) directly in the m16n8k16 A-fragment layout, B (stored row-major,
// Bs[k][n]) with `.trans`, which turns 8 k-rows of 8 n-columns into the
// k-pairs of the B fragment, two n8 tiles per instruction. Shared rows are
// padded by 8 elements (16 B) so the 8 row addresses of every 8x8 matrix fall
// in 8 different 16-byte bank groups.
//
// The launcher needs M and N to be multiples of 128 and K a multiple of 32:
// there are no edge guards (a cp.async without a source size cannot zero-fill).
//
// Hand-derived counts, T = K / BK = K / 32 k-slices (docs/counting.md
// conventions: a 16-byte cp.async is one 16 B global load and one 16 B shared
// store; an ldmatrix .x4 gives each lane 4 B per 8x8 matrix = 16 B of shared
// load; m16n8k16 = 2*16*8*16 = 4096 tensor FLOPs per warp = 128 per lane).
//   Per slice, per thread: A slice 128 x 32 bf16 = 512 16-byte chunks / 256
//     threads = 2 cp.async, B slice 32 x 128 = 512 chunks -> 2 cp.async:
//     4 global loads = 64 B, 4 shared stores = 64 B.
//     BK / 16 = 2 k16 steps, each: 4 ldmatrix.x4 for A (kTilesM = 4) + 2
//     ldmatrix.x4.trans for B (kTilesN = 4 n8 tiles, 2 per instruction) = 6 x 16
//     = 96 B of shared loads; 4 x 4 = 16 mma = 2048 tensor FLOPs.
//     -> 64 B global load, 64 B shared store, 192 B shared load, 32 mma,
//        4096 tensor bf16 FLOPs.
//   The prologue issues slice 0 and iteration kt issues slice kt + 1 when
//   kt + 1 < T: every slice exactly once, T slices in all.
//   Epilogue: 4 x 4 x 2 (i, j, h) float2 C accesses: 32 loads (256 B), 32 stores
//     (256 B), each pair c = alpha * acc + beta * c = 2 x (mul + fma) = 6 fp32 FLOPs
//     -> 192 fp32 FLOPs.
//   Per thread: tensor_bf16 4096 T, fp32 192; mma 32 T; global loads 4 T + 32 =
//     64 T + 256 B; global stores 32 = 256 B; shared loads 192 T B, shared stores
//     64 T B.
//   Per block (256 threads): tensor_bf16 1048576 T = 2 * 128 * 128 * K, fp32
//     49152; global load 16384 T + 65536 B (A 128 x K x 2 + B K x 128 x 2 + C
//     128 x 128 x 4); store 65536 B; shared load 49152 T B, shared store 16384 T B.
//   Per grid ((N / 128) x (M / 128) blocks): tensor_bf16 2 M N K, fp32 3 M N;
//     global load M N K / 32 + 4 M N B (= 2 M K (N / 128) + 2 K N (M / 128)
//     + 4 M N), store 4 M N B; shared load 3 M N K / 32 B, shared store M N K / 32 B.
//   At M = N = K = 4096 (T = 128): per thread tensor 524288, fp32 192, loads 544
//     = 8448 B, stores 32 = 256 B, shared loads 24576 B, shared stores 8192 B;
//     grid tensor 137438953472, fp32 50331648, global load 2214592512 B, store
//     67108864 B, shared load 6442450944 B, shared store 2147483648 B.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace cp_async_bf16 {

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// 16 bytes global -> shared, bypassing L1 (.cg), asynchronously.
__device__ __forceinline__ void copy16(void *dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src)
               : "memory");
}

__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most N of this thread's commit groups are still in flight.
template <int N> __device__ __forceinline__ void wait_pending() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void *row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr(row)));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void *row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr(row)));
}

// D = A * B + D for one m16n8k16 tile.
__device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                    uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

} // namespace cp_async_bf16

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    gemm_cp_async_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float beta, float *C) {
  using namespace cp_async_bf16;
  constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  constexpr int kPad = 8;
  constexpr int kTilesM = WM / 16, kTilesN = WN / 8;
  constexpr int kChunksA = BM * BK / 8 / kThreads, kChunksB = BK * BN / 8 / kThreads;
  static_assert(kChunksA * kThreads == BM * BK / 8 && kChunksB * kThreads == BK * BN / 8,
                "the slices divide into 16-byte copies per thread");
  static_assert(kTilesN % 2 == 0, "B is read two n8 tiles per ldmatrix.x4");
  static_assert(BK == 32, "a warp copies 8 rows x 4 chunks of A");
  __shared__ __align__(128) __nv_bfloat16 As[2][BM][BK + kPad];
  __shared__ __align__(128) __nv_bfloat16 Bs[2][BK][BN + kPad];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int group = lane / 4, t = lane % 4;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;
  const int numSlices = K / BK;

  // Issues the copies of k-slice `slice` into stage `stage` (no wait).
  auto load_slice = [&](int stage, int slice) {
    const int k0 = slice * BK;
#pragma unroll
    for (int p = 0; p < kChunksA; ++p) {
      // Lanes 8q .. 8q + 7 copy chunk q of 8 consecutive rows: a warp reads
      // 8 rows x 64 contiguous bytes, and each 8-lane phase of its shared
      // stores covers 8 rows 80 B apart, 8 different 16-byte bank groups.
      int v = p * kThreads + tid;
      int r = (v / 32) * 8 + v % 8, c = ((v / 8) % (BK / 8)) * 8;
      copy16(&As[stage][r][c], &A[(rowBase + r) * K + k0 + c]);
    }
#pragma unroll
    for (int p = 0; p < kChunksB; ++p) {
      int v = p * kThreads + tid;
      int r = v / (BN / 8), c = (v % (BN / 8)) * 8;
      copy16(&Bs[stage][r][c], &B[(k0 + r) * N + colBase + c]);
    }
  };

  float acc[kTilesM][kTilesN][4] = {};

  load_slice(0, 0);
  commit();
  for (int kt = 0; kt < numSlices; ++kt) {
    const int stage = kt & 1;
    if (kt + 1 < numSlices)
      load_slice(stage ^ 1, kt + 1);
    commit(); // possibly empty: keeps "one group per iteration" for the wait below
    wait_pending<1>();
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t a[kTilesM][4], b[kTilesN / 2][4];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
        // Lanes 0-7: rows 0-7, k 0-7 (a0); 8-15: rows 8-15 (a1); 16-23: rows
        // 0-7, k 8-15 (a2); 24-31: rows 8-15, k 8-15 (a3).
        int r = warpRow * WM + i * 16 + (lane % 16);
        ldmatrix_x4(a[i], &As[stage][r][kk + (lane / 16) * 8]);
      }
#pragma unroll
      for (int j = 0; j < kTilesN / 2; ++j) {
        // Matrix q = lane / 8: k rows kk + 8 (q % 2) .. +7, n columns of tile
        // 2j + q / 2; .trans gives b[j][q] = (k 2t, 2t + 1; n group).
        int q = lane / 8;
        int k = kk + (q % 2) * 8 + lane % 8;
        int n = warpCol * WN + (2 * j + q / 2) * 8;
        ldmatrix_x4_trans(b[j], &Bs[stage][k][n]);
      }
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
          mma(acc[i][j], a[i], b[j / 2][2 * (j % 2)], b[j / 2][2 * (j % 2) + 1]);
    }
    __syncthreads(); // every warp is done with `stage` before it is refilled
  }

#pragma unroll
  for (int i = 0; i < kTilesM; ++i)
#pragma unroll
    for (int j = 0; j < kTilesN; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int row = rowBase + warpRow * WM + i * 16 + group + 8 * h;
        int col = colBase + warpCol * WN + j * 8 + 2 * t;
        float2 *p = reinterpret_cast<float2 *>(&C[row * N + col]);
        float2 c = *p;
        c.x = alpha * acc[i][j][2 * h] + beta * c.x;
        c.y = alpha * acc[i][j][2 * h + 1] + beta * c.y;
        *p = c;
      }
}

// Returns false (launching nothing) unless M and N are multiples of 128 and K
// of 32.
bool launch_gemm_cp_async_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                               const __nv_bfloat16 *B, float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 32, WM = 64, WN = 32;
  if (M % BM != 0 || N % BN != 0 || K % BK != 0)
    return false;
  dim3 block((BM / WM) * (BN / WN) * 32);
  dim3 grid(N / BN, M / BM);
  gemm_cp_async_bf16<BM, BN, BK, WM, WN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  return true;
}
