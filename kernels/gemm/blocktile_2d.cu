// blocktile_2d.cu: single-precision GEMM, C = alpha * A * B + beta * C,
// row-major (A is M x K, B is K x N, C is M x N), with 2-D register blocking.
// A block of (BM / TM) * (BN / TN) threads computes a BM x BN tile of C; each
// thread computes a TM x TN sub-tile. Per step of BK along K the block stages
// a BM x BK tile of A and a BK x BN tile of B in shared memory (each thread
// loads several elements of each, in strided passes), then for each of the BK
// values every thread reads TM values of A and TN of B into registers and
// issues TM * TN FMAs: an outer product that does TM * TN FMAs per TM + TN
// shared loads.

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_blocktile_2d(int M, int N, int K, float alpha, const float *A, const float *B,
                       float beta, float *C) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  static_assert((BM * BK) % kThreads == 0 && (BK * BN) % kThreads == 0,
                "the tiles divide evenly among the threads");
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];

  const int tid = threadIdx.x;
  const int tcol = tid % (BN / TN);  // which TN-wide column group
  const int trow = tid / (BN / TN);  // which TM-high row group
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;

  float acc[TM][TN] = {};
  float regA[TM], regB[TN];

  for (int k0 = 0; k0 < K; k0 += BK) {
    // BM x BK tile of A, kThreads / BK rows per pass.
#pragma unroll
    for (int p = 0; p < BM * BK / kThreads; ++p) {
      int r = p * (kThreads / BK) + tid / BK;
      int gr = rowBase + r, gk = k0 + tid % BK;
      As[r * BK + tid % BK] = (gr < M && gk < K) ? A[gr * K + gk] : 0.0f;
    }
    // BK x BN tile of B, kThreads / BN rows per pass.
#pragma unroll
    for (int p = 0; p < BK * BN / kThreads; ++p) {
      int r = p * (kThreads / BN) + tid / BN;
      int gk = k0 + r, gc = colBase + tid % BN;
      Bs[r * BN + tid % BN] = (gk < K && gc < N) ? B[gk * N + gc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int d = 0; d < BK; ++d) {
#pragma unroll
      for (int i = 0; i < TM; ++i)
        regA[i] = As[(trow * TM + i) * BK + d];
#pragma unroll
      for (int j = 0; j < TN; ++j)
        regB[j] = Bs[d * BN + tcol * TN + j];
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
    for (int j = 0; j < TN; ++j) {
      int col = colBase + tcol * TN + j;
      if (row < M && col < N)
        C[row * N + col] = alpha * acc[i][j] + beta * C[row * N + col];
    }
  }
}

void launch_sgemm_blocktile_2d(int M, int N, int K, float alpha, const float *A,
                               const float *B, float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  dim3 block((BM / TM) * (BN / TN));
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  sgemm_blocktile_2d<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
