// vectorized.cu: single-precision GEMM, C = alpha * A * B + beta * C,
// row-major (A is M x K, B is K x N, C is M x N): 2-D register blocking with
// 16-byte accesses. Each of the (BM / TM) * (BN / TN) threads loads one
// float4 of the BM x BK tile of A and one float4 of the BK x BN tile of B per
// step of BK. The A tile is stored transposed (As[k][m]) so that the TM
// values of A a thread needs for one k are contiguous, like its TN values of
// B: both are read from shared memory as float4. C is read and written as
// float4 too. Global bytes per FLOP match the 2-D blocktiling kernel, but
// each request now moves 16 bytes instead of 4: four times fewer requests.
//
// float4 accesses need N and K to be multiples of 4; M is free, and N and K
// need not be multiples of the tile (edge tiles are zero-filled and guarded).

#include <cuda_runtime.h>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_vectorized(int M, int N, int K, float alpha, const float *A, const float *B,
                     float beta, float *C) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  static_assert(BM * BK == 4 * kThreads && BK * BN == 4 * kThreads,
                "each thread loads one float4 of each tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "register tiles are float4 wide");
  __shared__ __align__(16) float As[BK * BM]; // transposed: As[k * BM + m]
  __shared__ __align__(16) float Bs[BK * BN];

  const int tid = threadIdx.x;
  const int tcol = tid % (BN / TN);
  const int trow = tid / (BN / TN);
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;

  // This thread's float4 of each tile.
  const int aRow = tid / (BK / 4), aCol = (tid % (BK / 4)) * 4;
  const int bRow = tid / (BN / 4), bCol = (tid % (BN / 4)) * 4;

  float acc[TM][TN] = {};
  float regA[TM], regB[TN];

  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (rowBase + aRow < M && k0 + aCol < K)
      a = *reinterpret_cast<const float4 *>(&A[(rowBase + aRow) * K + k0 + aCol]);
    As[(aCol + 0) * BM + aRow] = a.x;
    As[(aCol + 1) * BM + aRow] = a.y;
    As[(aCol + 2) * BM + aRow] = a.z;
    As[(aCol + 3) * BM + aRow] = a.w;
    float4 b = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (k0 + bRow < K && colBase + bCol < N)
      b = *reinterpret_cast<const float4 *>(&B[(k0 + bRow) * N + colBase + bCol]);
    *reinterpret_cast<float4 *>(&Bs[bRow * BN + bCol]) = b;
    __syncthreads();

#pragma unroll
    for (int d = 0; d < BK; ++d) {
#pragma unroll
      for (int i = 0; i < TM; i += 4)
        *reinterpret_cast<float4 *>(&regA[i]) =
            *reinterpret_cast<const float4 *>(&As[d * BM + trow * TM + i]);
#pragma unroll
      for (int j = 0; j < TN; j += 4)
        *reinterpret_cast<float4 *>(&regB[j]) =
            *reinterpret_cast<const float4 *>(&Bs[d * BN + tcol * TN + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] += regA[i] * regB[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int row = rowBase + trow * TM + i;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      int col = colBase + tcol * TN + j;
      if (row < M && col < N) {
        float4 *p = reinterpret_cast<float4 *>(&C[row * N + col]);
        float4 c = *p;
        c.x = alpha * acc[i][j + 0] + beta * c.x;
        c.y = alpha * acc[i][j + 1] + beta * c.y;
        c.z = alpha * acc[i][j + 2] + beta * c.z;
        c.w = alpha * acc[i][j + 3] + beta * c.w;
        *p = c;
      }
    }
  }
}

// Returns false (launching nothing) when N or K is not a multiple of 4.
bool launch_sgemm_vectorized(int M, int N, int K, float alpha, const float *A,
                             const float *B, float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  if (N % 4 != 0 || K % 4 != 0)
    return false;
  dim3 block((BM / TM) * (BN / TN));
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  sgemm_vectorized<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  return true;
}
