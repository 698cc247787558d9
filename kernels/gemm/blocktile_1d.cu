// blocktile_1d.cu: single-precision GEMM, C = alpha * A * B + beta * C,
// row-major (A is M x K, B is K x N, C is M x N), with 1-D register blocking.
// A block computes a BM x BN tile of C with (BM / TM) * BN threads; each
// thread computes TM outputs down one column. Per step of BK along K, every
// thread stages one element of A (BM x BK tile) and one of B (BK x BN tile) in
// shared memory, then for each of the BK values of its B column it reads one
// B value and TM A values from shared memory and issues TM FMAs: a B value
// read once from shared memory feeds TM FMAs in registers.

template <int BM, int BN, int BK, int TM>
__global__ void sgemm_blocktile_1d(int M, int N, int K, float alpha, const float *A,
                                   const float *B, float beta, float *C) {
  static_assert(BM * BK == (BM / TM) * BN && BK * BN == (BM / TM) * BN,
                "each thread loads exactly one A and one B element per tile");
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];

  const int tid = threadIdx.x;
  const int tcol = tid % BN;  // column of the output tile
  const int trow = tid / BN;  // group of TM rows of the output tile
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;

  // The element of each tile this thread stages.
  const int aRow = tid / BK, aCol = tid % BK;
  const int bRow = tid / BN, bCol = tid % BN;

  float acc[TM] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    int ar = rowBase + aRow, ak = k0 + aCol;
    As[aRow * BK + aCol] = (ar < M && ak < K) ? A[ar * K + ak] : 0.0f;
    int bk = k0 + bRow, bc = colBase + bCol;
    Bs[bRow * BN + bCol] = (bk < K && bc < N) ? B[bk * N + bc] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int d = 0; d < BK; ++d) {
      float b = Bs[d * BN + tcol];
#pragma unroll
      for (int i = 0; i < TM; ++i)
        acc[i] += As[(trow * TM + i) * BK + d] * b;
    }
    __syncthreads();
  }

  const int col = colBase + tcol;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int row = rowBase + trow * TM + i;
    if (row < M && col < N)
      C[row * N + col] = alpha * acc[i] + beta * C[row * N + col];
  }
}

void launch_sgemm_blocktile_1d(int M, int N, int K, float alpha, const float *A,
                               const float *B, float beta, float *C) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  dim3 block((BM / TM) * BN);
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  sgemm_blocktile_1d<BM, BN, BK, TM><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
