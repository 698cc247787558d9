// Loads that warps re-read, and loads that only look like it.
#include <cuda_runtime.h>

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

// One output per thread, threadIdx.x along the rows of C: the lanes of a
// warp read 32 rows of A (strided) and one element of B (a broadcast).
__global__ void gemm_rows(int M, int N, int K, const float *A, const float *B,
                          float *C) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    float acc = 0.0f;
    for (int i = 0; i < K; ++i)
      acc += A[x * K + i] * B[i * N + y];
    C[x * N + y] = acc;
  }
}

// Normalization with per-row statistics: every warp of a block reads the
// block's mean and rstd once.
__global__ void normalize(const float *x, const float *mean, const float *rstd,
                          float *out, int C) {
  int row = blockIdx.x;
  float m = mean[row];
  float s = rstd[row];
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    out[row * C + c] = (x[row * C + c] - m) * s;
}

// Each warp scales its slice by a per-warp factor.
__global__ void warp_scale(const float *x, const float *factor, float *y,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = i / 32;
  if (i < n)
    y[i] = x[i] * factor[warp];
}

// One block per 8 rows of the weights w, one warp per row: each warp takes
// the dot product of its row with every input x[b] in turn. The warps of a
// block read the same input (near: in the same iteration), and every input
// walks the block's rows of w again (far: between two reads of a weight
// the block loads all of its rows).
__global__ void batched_dot(int batch, int cols, const float *w, const float *x,
                            float *partial) {
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  const int rows = gridDim.x * blockDim.y;
  for (int b = 0; b < batch; ++b) {
    float acc = 0.0f;
    for (int i = threadIdx.x; i < cols; i += 32)
      acc += w[row * cols + i] * x[b * cols + i];
    partial[(b * rows + row) * 32 + threadIdx.x] = acc;
  }
}

void run_gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  dim3 block(32, 32);
  dim3 grid(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
  gemm_rows<<<grid, block>>>(M, N, K, A, B, C);
}

void run_normalize(const float *x, const float *mean, const float *rstd,
                   float *out, int B, int C) {
  normalize<<<B, 256>>>(x, mean, rstd, out, C);
}

void run_warp_scale(const float *x, const float *f, float *y, int n) {
  warp_scale<<<CEIL_DIV(n, 256), 256>>>(x, f, y, n);
}

void run_batched(const float *w, const float *x, float *partial, int C) {
  constexpr int kBatch = 16, kRows = 512;
  batched_dot<<<kRows / 8, dim3(32, 8)>>>(kBatch, C, w, x, partial);
}
