// coalesced.cu: single-precision GEMM, C = alpha * A * B + beta * C, row-major
// (A is M x K, B is K x N, C is M x N). Still one output per thread and no
// on-chip reuse, but thread x now maps to the column of C: the 32 lanes of a
// warp read one element of A (the same address: a broadcast) and 32
// consecutive elements of the row of B, and write 32 consecutive elements of
// C. Global traffic requested per FLOP is the same as the naive kernel; what
// changes is how many sectors each warp request touches.

template <int BX, int BY>
__global__ void sgemm_coalesced(int M, int N, int K, float alpha, const float *A,
                                const float *B, float beta, float *C) {
  int col = blockIdx.x * BX + threadIdx.x;
  int row = blockIdx.y * BY + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
}

void launch_sgemm_coalesced(int M, int N, int K, float alpha, const float *A, const float *B,
                            float beta, float *C) {
  constexpr int BX = 32, BY = 8;
  dim3 block(BX, BY);
  dim3 grid((N + BX - 1) / BX, (M + BY - 1) / BY);
  sgemm_coalesced<BX, BY><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
