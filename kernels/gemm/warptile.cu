// warptile.cu: single-precision GEMM, C = alpha * A * B + beta * C,
// row-major (A is M x K, B is K x N, C is M x N), with a warp level in the
// tiling hierarchy. The BM x BN block tile is split into WM x WN warp tiles,
// one per warp; a warp covers its tile in WMITER x WNITER steps of a
// (WM / WMITER) x (WN / WNITER) sub-tile, on which its 32 lanes are laid out
// as a grid with TM x TN outputs each. A lane therefore owns
// (WMITER * TM) x (WNITER * TN) outputs spread over the warp tile, and the
// lanes of a warp read neighbouring addresses of the shared tiles. Global
// loads are float4, with A stored transposed in shared memory, as in
// vectorized.cu.
//
// float4 accesses need N and K to be multiples of 4; M is free, and N and K
// need not be multiples of the tile (edge tiles are zero-filled and guarded).

#include <cuda_runtime.h>

template <int BM, int BN, int BK, int WM, int WN, int WMITER, int WNITER, int TM, int TN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    sgemm_warptile(int M, int N, int K, float alpha, const float *A, const float *B,
                   float beta, float *C) {
  constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  constexpr int kSubM = WM / WMITER, kSubN = WN / WNITER;
  static_assert((kSubM / TM) * (kSubN / TN) == 32, "a sub-tile holds one warp of lanes");
  static_assert((BM * BK) % (4 * kThreads) == 0 && (BK * BN) % (4 * kThreads) == 0,
                "the tiles divide into float4 loads per thread");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "register tiles are float4 wide");
  __shared__ __align__(16) float As[BK * BM]; // transposed: As[k * BM + m]
  __shared__ __align__(16) float Bs[BK * BN];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int laneRow = lane / (kSubN / TN), laneCol = lane % (kSubN / TN);
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;

  float acc[WMITER * TM][WNITER * TN] = {};
  float regA[WMITER * TM], regB[WNITER * TN];

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int p = 0; p < BM * BK / (4 * kThreads); ++p) {
      int v = p * kThreads + tid; // float4 index in the A tile
      int r = v / (BK / 4), c = (v % (BK / 4)) * 4;
      float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (rowBase + r < M && k0 + c < K)
        a = *reinterpret_cast<const float4 *>(&A[(rowBase + r) * K + k0 + c]);
      As[(c + 0) * BM + r] = a.x;
      As[(c + 1) * BM + r] = a.y;
      As[(c + 2) * BM + r] = a.z;
      As[(c + 3) * BM + r] = a.w;
    }
#pragma unroll
    for (int p = 0; p < BK * BN / (4 * kThreads); ++p) {
      int v = p * kThreads + tid; // float4 index in the B tile
      int r = v / (BN / 4), c = (v % (BN / 4)) * 4;
      float4 b = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (k0 + r < K && colBase + c < N)
        b = *reinterpret_cast<const float4 *>(&B[(k0 + r) * N + colBase + c]);
      *reinterpret_cast<float4 *>(&Bs[r * BN + c]) = b;
    }
    __syncthreads();

#pragma unroll
    for (int d = 0; d < BK; ++d) {
#pragma unroll
      for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
        for (int i = 0; i < TM; i += 4)
          *reinterpret_cast<float4 *>(&regA[wm * TM + i]) = *reinterpret_cast<const float4 *>(
              &As[d * BM + warpRow * WM + wm * kSubM + laneRow * TM + i]);
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
          *reinterpret_cast<float4 *>(&regB[wn * TN + j]) = *reinterpret_cast<const float4 *>(
              &Bs[d * BN + warpCol * WN + wn * kSubN + laneCol * TN + j]);
#pragma unroll
      for (int i = 0; i < WMITER * TM; ++i)
#pragma unroll
        for (int j = 0; j < WNITER * TN; ++j)
          acc[i][j] += regA[i] * regB[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      int row = rowBase + warpRow * WM + wm * kSubM + laneRow * TM + i;
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
          int col = colBase + warpCol * WN + wn * kSubN + laneCol * TN + j;
          if (row < M && col < N) {
            float4 *p = reinterpret_cast<float4 *>(&C[row * N + col]);
            float4 c = *p;
            const float *r = &acc[wm * TM + i][wn * TN + j];
            c.x = alpha * r[0] + beta * c.x;
            c.y = alpha * r[1] + beta * c.y;
            c.z = alpha * r[2] + beta * c.z;
            c.w = alpha * r[3] + beta * c.w;
            *p = c;
          }
        }
    }
}

// Returns false (launching nothing) when N or K is not a multiple of 4.
bool launch_sgemm_warptile(int M, int N, int K, float alpha, const float *A, const float *B,
                           float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 64, WMITER = 2, WNITER = 2;
  constexpr int TM = 4, TN = 8;
  if (N % 4 != 0 || K % 4 != 0)
    return false;
  dim3 block((BM / WM) * (BN / WN) * 32);
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  sgemm_warptile<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN>
      <<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  return true;
}
