// Dense y = A x, row-major A (M x N): one row per thread, and one row per warp
// with a __shfl_down_sync tree reduction.

__global__ void mv_row_per_thread(const float *A, const float *x, float *y, int M, int N) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M) {
    float s = 0.0f;
    for (int j = 0; j < N; ++j)
      s += A[row * N + j] * x[j];
    y[row] = s;
  }
}

__global__ void mv_row_per_warp(const float *A, const float *x, float *y, int M, int N) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= M)
    return;
  float s = 0.0f;
  for (int j = lane; j < N; j += 32)
    s += A[warp * N + j] * x[j];
  for (int off = 16; off > 0; off /= 2)
    s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0)
    y[warp] = s;
}

// Warp per row again, but a fixed grid of warps strides over the rows.
__global__ void mv_warp_gridstride(const float *A, const float *x, float *y, int M, int N) {
  int lane = threadIdx.x & 31;
  int nwarps = (gridDim.x * blockDim.x) / 32;
  for (int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32; row < M; row += nwarps) {
    float s = 0.0f;
    for (int j = lane; j < N; j += 32)
      s += A[row * N + j] * x[j];
    for (int off = 16; off > 0; off /= 2)
      s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0)
      y[row] = s;
  }
}

void launch_matvec(const float *A, const float *x, float *y, int M, int N) {
  mv_row_per_thread<<<(M + 127) / 128, 128>>>(A, x, y, M, N);
  int warpsPerBlock = 4;
  mv_row_per_warp<<<(M + warpsPerBlock - 1) / warpsPerBlock, 32 * warpsPerBlock>>>(A, x, y, M, N);
  mv_warp_gridstride<<<8, 128>>>(A, x, y, M, N);
}
