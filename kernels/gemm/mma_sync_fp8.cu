// mma_sync_fp8.cu: fp8 GEMM on tensor cores through inline PTX, C = alpha * A
// * B + beta * C with A (M x K) and B (K x N) in fp8 e4m3 and C (M x N) in
// fp32; mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 (Ada and Hopper).
// compile-arch: sm_89
//
// Layout, as fp8 GEMMs take their operands: A is row-major (M x K) and B is
// given transposed, Bt (N x K) row-major, so that both operands are K-major
// ("TN") and every 32-bit fragment register holds four k-consecutive bytes.
// A block of 8 warps computes a BM x BN = 128 x 128 tile of C; each warp a WM x
// WN = 64 x 32 warp tile of 4 x 4 m16n8 fp32 accumulator tiles. Per BK = 64
// slice of K the block copies a 128 x 64-byte tile of A and of Bt into shared
// memory with 16-byte loads and stores (rows padded by 16 bytes). The operand
// registers come from `ldmatrix.sync.aligned.m8n8.x4.shared.b16`: an 8x8 b16
// matrix is 8 rows of 16 fp8 values, and the lane (group, t) receiving row
// group, bytes 4t .. 4t + 3 is exactly the m16n8k32 fragment layout (A: rows
// group / group + 8, k 4t .. 4t + 3 / 4t + 16 .. 4t + 19; B: column group, the
// same k), so one .x4 yields a whole A fragment or the B fragments of two n8
// tiles.
//
// The launcher needs M and N to be multiples of 128 and K of 64 (no edge
// guards).
//
// Hand-derived counts, T = K / BK = K / 64 k-slices (docs/counting.md: an
// ldmatrix .x4 gives each lane 16 B of shared load; m16n8k32 = 2*16*8*32 = 8192
// tensor FLOPs per warp = 256 per lane, tensor_fp8 by input precision).
//   Per slice, per thread (256 threads): A slice 128 x 64 B = 512 16-byte vectors
//     -> 2 per thread, Bt slice 128 x 64 B -> 2: 4 global loads = 64 B, 4 shared
//     stores = 64 B. BK / 32 = 2 k32 steps, each: 4 ldmatrix.x4 for A (kTilesM =
//     4) + 2 for B (kTilesN = 4, two n8 tiles each) = 6 x 16 = 96 B shared load;
//     4 x 4 = 16 mma = 4096 tensor FLOPs.
//     -> 64 B global load, 64 B shared store, 192 B shared load, 32 mma,
//        8192 tensor fp8 FLOPs.
//   Epilogue: 4 x 4 x 2 (i, j, h) float2 C accesses: 32 loads (256 B), 32 stores
//     (256 B), 6 fp32 FLOPs each -> 192 fp32 FLOPs.
//   Per thread: tensor_fp8 8192 T, fp32 192; mma 32 T; global loads 4 T + 32 =
//     64 T + 256 B; stores 32 = 256 B; shared loads 192 T B, shared stores 64 T B.
//   Per block (256 threads): tensor_fp8 2097152 T = 2 * 128 * 128 * K, fp32 49152;
//     global load 16384 T + 65536 B (A 128 x K + Bt 128 x K + C 128 x 128 x 4);
//     store 65536 B; shared load 49152 T B, shared store 16384 T B.
//   Per grid ((N / 128) x (M / 128) blocks): tensor_fp8 2 M N K, fp32 3 M N;
//     global load M K (N / 128) + K N (M / 128) + 4 M N = M N K / 64 + 4 M N B;
//     store 4 M N B; shared load 3 M N K / 64 B, shared store M N K / 64 B.
//   At M = N = K = 4096 (T = 64): per thread tensor 524288, fp32 192, loads 288
//     = 4352 B, stores 32 = 256 B, shared loads 12288 B, shared stores 4096 B;
//     grid tensor 137438953472, fp32 50331648, global load 1140850688 B, store
//     67108864 B, shared load 3221225472 B, shared store 1073741824 B.

#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <stdint.h>

// D = A * B + D for one m16n8k32 tile of e4m3 inputs, fp32 accumulators.
__device__ __forceinline__ void mma_m16n8k32_e4m3(float (&d)[4], const uint32_t (&a)[4],
                                                  uint32_t b0, uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ void ldmatrix_x4_b8(uint32_t (&r)[4], const void *row) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    gemm_mma_sync_fp8(int M, int N, int K, float alpha, const __nv_fp8_e4m3 *A,
                      const __nv_fp8_e4m3 *Bt, float beta, float *C) {
  constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  constexpr int kPad = 16; // bytes
  constexpr int kTilesM = WM / 16, kTilesN = WN / 8;
  static_assert((BM * BK / 16) % kThreads == 0 && (BN * BK / 16) % kThreads == 0,
                "the slices divide into 16-byte loads per thread");
  static_assert(kTilesN % 2 == 0, "B is read two n8 tiles per ldmatrix.x4");
  // Lanes 8q .. 8q + 7 copy 16-byte chunk q of 8 consecutive rows: a warp reads
  // 8 rows x 64 contiguous bytes, and each 8-lane phase of its shared stores
  // covers 8 rows 80 B apart, 8 different 16-byte bank groups.
  static_assert(BK == 64, "a warp copies 8 rows x 4 chunks");
  __shared__ __align__(16) uint8_t As[BM][BK + kPad];
  __shared__ __align__(16) uint8_t Bs[BN][BK + kPad]; // Bs[n][k]

  const uint8_t *Ab = reinterpret_cast<const uint8_t *>(A);
  const uint8_t *Bb = reinterpret_cast<const uint8_t *>(Bt);
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int group = lane / 4, t = lane % 4;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;

  float acc[kTilesM][kTilesN][4] = {};

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int p = 0; p < BM * BK / 16 / kThreads; ++p) {
      int v = p * kThreads + tid;
      int r = (v / 32) * 8 + v % 8, c = ((v / 8) % (BK / 16)) * 16;
      *reinterpret_cast<uint4 *>(&As[r][c]) =
          *reinterpret_cast<const uint4 *>(&Ab[(rowBase + r) * K + k0 + c]);
    }
#pragma unroll
    for (int p = 0; p < BN * BK / 16 / kThreads; ++p) {
      int v = p * kThreads + tid;
      int r = (v / 32) * 8 + v % 8, c = ((v / 8) % (BK / 16)) * 16;
      *reinterpret_cast<uint4 *>(&Bs[r][c]) =
          *reinterpret_cast<const uint4 *>(&Bb[(colBase + r) * K + k0 + c]);
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BK; kk += 32) {
      uint32_t a[kTilesM][4], b[kTilesN / 2][4];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
        // Lanes 0-15 name rows 0-15 at k bytes 0-15 (a0, a1), lanes 16-31 the
        // same rows at k bytes 16-31 (a2, a3).
        int r = warpRow * WM + i * 16 + lane % 16;
        ldmatrix_x4_b8(a[i], &As[r][kk + (lane / 16) * 16]);
      }
#pragma unroll
      for (int j = 0; j < kTilesN / 2; ++j) {
        // Matrix q = lane / 8: columns of n8 tile 2j + q / 2, k bytes 16 (q % 2)
        // .. + 15 -> b[j] = {tile 2j: b0, b1; tile 2j + 1: b0, b1}.
        int q = lane / 8;
        int n = warpCol * WN + (2 * j + q / 2) * 8 + lane % 8;
        ldmatrix_x4_b8(b[j], &Bs[n][kk + (q % 2) * 16]);
      }
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
          mma_m16n8k32_e4m3(acc[i][j], a[i], b[j / 2][2 * (j % 2)], b[j / 2][2 * (j % 2) + 1]);
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

// Bt is B transposed (N x K, row-major). Returns false (launching nothing)
// unless M and N are multiples of 128 and K of 64.
bool launch_gemm_mma_sync_fp8(int M, int N, int K, float alpha, const __nv_fp8_e4m3 *A,
                              const __nv_fp8_e4m3 *Bt, float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 64, WM = 64, WN = 32;
  if (M % BM != 0 || N % BN != 0 || K % BK != 0)
    return false;
  dim3 block((BM / WM) * (BN / WN) * 32);
  dim3 grid(N / BN, M / BM);
  gemm_mma_sync_fp8<BM, BN, BK, WM, WN><<<grid, block>>>(M, N, K, alpha, A, Bt, beta, C);
  return true;
}
