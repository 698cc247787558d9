// Indexing as found in CUDA projects: flat launches taken apart by / and %,
// neighbours clamped with ?: at the borders, a templated kernel from a
// header, grid sizes from a helper.
#include "indexing_ops.cuh"

static int blocks_for(long n, int threads) {
  return (int)((n + threads - 1) / threads);
}

__global__ void flat_transpose(const float *in, float *out, int rows,
                               int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols)
    return;
  int r = i / cols, c = i % cols;
  out[c * rows + r] = in[i];
}

__global__ void blur_rows(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n)
    return;
  int l = x > 0 ? x - 1 : x;
  int r = x < n - 1 ? x + 1 : x;
  out[x] = (in[l] + in[x] + in[r]) * (1.0f / 3.0f);
}

void run_all(const float *a, float *b, const float *bias) {
  const int rows = 2048, cols = 4096;
  flat_transpose<<<blocks_for((long)rows * cols, 256), 256>>>(a, b, rows, cols);
  const int n = 1 << 24;
  blur_rows<<<blocks_for(n, 512), 512>>>(a, b, n);
  const int N = 8, C = 64, H = 128, W = 128;
  bias_add_nchw<float><<<blocks_for((long)N * C * H * W, 256), 256>>>(
      a, bias, b, N, C, H, W);
}
