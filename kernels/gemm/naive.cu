// naive.cu: single-precision GEMM, C = alpha * A * B + beta * C, row-major,
// A is M x K, B is K x N, C is M x N. One thread per element of C, no reuse
// through shared memory. Thread x maps to the row of C, so the 32 lanes of a
// warp read 32 different rows of A (stride K: uncoalesced) and write 32
// different rows of C; thread y maps to the column.

template <int BX, int BY>
__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B,
                            float beta, float *C) {
  int row = blockIdx.x * BX + threadIdx.x;
  int col = blockIdx.y * BY + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
      acc += A[row * K + k] * B[k * N + col];
    }
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
}

void launch_sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B,
                        float beta, float *C) {
  constexpr int BX = 16, BY = 16;
  dim3 block(BX, BY);
  dim3 grid((M + BX - 1) / BX, (N + BY - 1) / BY);
  sgemm_naive<BX, BY><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
