// mma_sync_bf16.cu: mixed-precision GEMM on tensor cores through inline PTX,
// C = alpha * A * B + beta * C with A (M x K) and B (K x N) in bf16 and C
// (M x N) in fp32, all row-major. The same tiling as wmma_bf16.cu, one level
// lower: each warp issues mma.sync.aligned.m16n8k16 instructions directly and
// builds their operand registers itself from shared memory, following the
// fragment layouts of the PTX ISA (lane = 4 * group + t: A rows group and
// group + 8, columns 2t, 2t + 1 and 2t + 8, 2t + 9; B columns group, rows 2t,
// 2t + 1 and 2t + 8, 2t + 9; C rows group and group + 8, columns 2t, 2t + 1).
// B is stored transposed in shared memory (Bs[n][k]) so that the two k-adjacent
// values of a B register are one 32-bit word. C is read and written as float2.
//
// The launcher needs N and K to be multiples of 8 (16-byte loads of A and B,
// 8-byte accesses of C); M, N and K need not be multiples of the block tile.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

// D = A * B + C for one m16n8k16 tile, fp32 accumulators in place.
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4],
                                             const uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    gemm_mma_sync_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float beta, float *C) {
  constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  constexpr int kPad = 8;
  constexpr int kTilesM = WM / 16, kTilesN = WN / 8;
  static_assert((BM * BK / 8) % kThreads == 0 && (BK * BN / 8) % kThreads == 0,
                "the tiles divide into 16-byte loads per thread");
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK + kPad];
  __shared__ __align__(16) __nv_bfloat16 Bs[BN][BK + kPad]; // transposed: Bs[n][k]

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
      int v = p * kThreads + tid; // 8-element vector index in the A tile
      int r = v / (BK / 8), c = (v % (BK / 8)) * 8;
      uint4 x = make_uint4(0, 0, 0, 0);
      if (rowBase + r < M && k0 + c < K)
        x = *reinterpret_cast<const uint4 *>(&A[(rowBase + r) * K + k0 + c]);
      *reinterpret_cast<uint4 *>(&As[r][c]) = x;
    }
#pragma unroll
    for (int p = 0; p < BK * BN / 8 / kThreads; ++p) {
      int v = p * kThreads + tid; // 8-element vector index in the B tile
      int r = v / (BN / 8), c = (v % (BN / 8)) * 8;
      uint4 x = make_uint4(0, 0, 0, 0);
      if (k0 + r < K && colBase + c < N)
        x = *reinterpret_cast<const uint4 *>(&B[(k0 + r) * N + colBase + c]);
      const __nv_bfloat16 *e = reinterpret_cast<const __nv_bfloat16 *>(&x);
#pragma unroll
      for (int i = 0; i < 8; ++i)
        Bs[c + i][r] = e[i];
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
      for (int j = 0; j < kTilesN; ++j) {
        int n = warpCol * WN + j * 8 + group;
        b[j][0] = *reinterpret_cast<const uint32_t *>(&Bs[n][kk + 2 * t]);
        b[j][1] = *reinterpret_cast<const uint32_t *>(&Bs[n][kk + 2 * t + 8]);
      }
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
          mma_m16n8k16(acc[i][j], a[i], b[j]);
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
        if (row < M && col < N) {
          float2 *p = reinterpret_cast<float2 *>(&C[row * N + col]);
          float2 c = *p;
          c.x = alpha * acc[i][j][2 * h] + beta * c.x;
          c.y = alpha * acc[i][j][2 * h + 1] + beta * c.y;
          *p = c;
        }
      }
}

// Returns false (launching nothing) unless N and K are multiples of 8.
bool launch_gemm_mma_sync_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                               const __nv_bfloat16 *B, float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 32, WM = 64, WN = 32;
  if (N % 8 != 0 || K % 8 != 0)
    return false;
  dim3 block((BM / WM) * (BN / WN) * 32);
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  gemm_mma_sync_bf16<BM, BN, BK, WM, WN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  return true;
}
