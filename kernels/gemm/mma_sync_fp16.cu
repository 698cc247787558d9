// mma_sync_fp16.cu: half-precision GEMM on tensor cores through inline PTX,
// C = alpha * A * B + beta * C with A (M x K) and B (K x N) in fp16 and C
// (M x N) in fp32, all row-major; mma.sync.aligned.m16n8k16 with fp16 inputs
// and fp32 accumulation.
// compile-arch: sm_80
//
// A block of 4 warps (2 x 2) computes a BM x BN = 64 x 128 tile of C; each warp
// a WM x WN = 32 x 64 warp tile of 2 x 8 m16n8 accumulator tiles. Per BK = 32
// slice of K the block copies A and B into shared memory with 16-byte (8 x
// half) loads and stores, both row-major as in global memory. A-fragment
// registers are plain 32-bit shared loads in the ISA's layout (lane = 4 group
// + t: rows group and group + 8, k 2t, 2t + 1 and 2t + 8, 2t + 9); the
// B-fragment registers, which pair two k-adjacent values of one column, come
// from `ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16` on the row-major B
// tile: matrix 0 = k rows 0-7, matrix 1 = k rows 8-15 of an n8 column strip,
// transposed on the way so lane (group, t) receives (k 2t, 2t + 1; n group).
// Shared rows are padded by 8 halves.
//
// The launcher needs M to be a multiple of 64, N of 128 and K of 32 (there
// are no edge guards).
//
// Hand-derived counts, T = K / BK = K / 32 k-slices (docs/counting.md: an
// ldmatrix .x2 gives each lane 4 B per matrix = 8 B; a 32-bit shared load 4 B;
// m16n8k16 = 4096 tensor FLOPs per warp, 128 per lane, counted as tensor_fp16
// by input precision).
//   Per slice, per thread (128 threads): A slice 64 x 32 half = 256 16-byte
//     vectors -> 2 per thread; B slice 32 x 128 = 512 -> 4 per thread:
//     6 global loads = 96 B, 6 shared stores (uint4) = 96 B.
//     BK / 16 = 2 k16 steps, each: A 2 tiles x 4 uint32 = 8 shared loads = 32 B;
//     B 8 ldmatrix.x2.trans = 8 x 8 = 64 B; 2 x 8 = 16 mma = 2048 tensor FLOPs.
//     -> 96 B global load, 96 B shared store, 192 B shared load, 32 mma,
//        4096 tensor fp16 FLOPs.
//   Epilogue: 2 x 8 x 2 (i, j, h) float2 C accesses: 32 loads (256 B), 32 stores
//     (256 B), 6 fp32 FLOPs each (alpha * acc + beta * c for x and y: mul + fma
//     twice) -> 192 fp32 FLOPs.
//   Per thread: tensor_fp16 4096 T, fp32 192; mma 32 T; global loads 6 T + 32 =
//     96 T + 256 B; stores 32 = 256 B; shared loads 192 T B, shared stores 96 T B.
//   Per block (128 threads): tensor_fp16 524288 T = 2 * 64 * 128 * K, fp32 24576;
//     global load 12288 T + 32768 B (A 64 x K x 2 + B K x 128 x 2 + C 64 x 128 x 4);
//     store 32768 B; shared load 24576 T B, shared store 12288 T B.
//   Per grid ((N / 128) x (M / 64) blocks): tensor_fp16 2 M N K, fp32 3 M N;
//     global load 2 M K (N / 128) + 2 K N (M / 64) + 4 M N = 3 M N K / 64 + 4 M N
//     B; store 4 M N B; shared load 3 M N K / 32 B, shared store 3 M N K / 64 B.
//   At M = N = K = 4096 (T = 128): per thread tensor 524288, fp32 192, loads 800
//     = 12544 B, stores 32 = 256 B, shared loads 24576 B, shared stores 12288 B;
//     grid tensor 137438953472, fp32 50331648, global load 3288334336 B, store
//     67108864 B, shared load 6442450944 B, shared store 3221225472 B.

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

// D = A * B + D for one m16n8k16 tile, fp16 inputs, fp32 accumulators.
__device__ __forceinline__ void mma_m16n8k16_f16(float (&d)[4], const uint32_t (&a)[4],
                                                 const uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Two transposed 8x8 b16 matrices; lanes 0-15 name their 16 rows.
__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], const void *row) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(addr));
}

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    gemm_mma_sync_fp16(int M, int N, int K, float alpha, const __half *A, const __half *B,
                       float beta, float *C) {
  constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  constexpr int kPad = 8;
  constexpr int kTilesM = WM / 16, kTilesN = WN / 8;
  static_assert((BM * BK / 8) % kThreads == 0 && (BK * BN / 8) % kThreads == 0,
                "the slices divide into 16-byte loads per thread");
  static_assert(BK == 32, "a warp copies 8 rows x 4 chunks of A");
  __shared__ __align__(16) __half As[BM][BK + kPad];
  __shared__ __align__(16) __half Bs[BK][BN + kPad];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int group = lane / 4, t = lane % 4;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;

  float acc[kTilesM][kTilesN][4] = {};

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int p = 0; p < BM * BK / 8 / kThreads; ++p) {
      // Lanes 8q .. 8q + 7: chunk q of 8 consecutive rows (a warp reads 8 rows
      // x 64 contiguous bytes; each 8-lane phase of the stores covers 8 rows
      // 80 B apart, 8 different 16-byte bank groups).
      int v = p * kThreads + tid;
      int r = (v / 32) * 8 + v % 8, c = ((v / 8) % (BK / 8)) * 8;
      *reinterpret_cast<uint4 *>(&As[r][c]) =
          *reinterpret_cast<const uint4 *>(&A[(rowBase + r) * K + k0 + c]);
    }
#pragma unroll
    for (int p = 0; p < BK * BN / 8 / kThreads; ++p) {
      int v = p * kThreads + tid;
      int r = v / (BN / 8), c = (v % (BN / 8)) * 8;
      *reinterpret_cast<uint4 *>(&Bs[r][c]) =
          *reinterpret_cast<const uint4 *>(&B[(k0 + r) * N + colBase + c]);
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t a[kTilesM][4], b[kTilesN][2];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
        int r = warpRow * WM + i * 16 + group;
        a[i][0] = *reinterpret_cast<const uint32_t *>(&As[r][kk + 2 * t]);
        a[i][1] = *reinterpret_cast<const uint32_t *>(&As[r + 8][kk + 2 * t]);
        a[i][2] = *reinterpret_cast<const uint32_t *>(&As[r][kk + 2 * t + 8]);
        a[i][3] = *reinterpret_cast<const uint32_t *>(&As[r + 8][kk + 2 * t + 8]);
      }
#pragma unroll
      for (int j = 0; j < kTilesN; ++j)
        ldmatrix_x2_trans(b[j], &Bs[kk + lane % 16][warpCol * WN + j * 8]);
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
          mma_m16n8k16_f16(acc[i][j], a[i], b[j]);
    }
    __syncthreads();
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

// Returns false (launching nothing) unless M is a multiple of 64, N of 128 and
// K of 32.
bool launch_gemm_mma_sync_fp16(int M, int N, int K, float alpha, const __half *A,
                               const __half *B, float beta, float *C) {
  constexpr int BM = 64, BN = 128, BK = 32, WM = 32, WN = 64;
  if (M % BM != 0 || N % BN != 0 || K % BK != 0)
    return false;
  dim3 block((BM / WM) * (BN / WN) * 32);
  dim3 grid(N / BN, M / BM);
  gemm_mma_sync_fp16<BM, BN, BK, WM, WN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  return true;
}
