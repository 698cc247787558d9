// Three kernels as an application would write them, each held back by a
// different part of the GPU, launched by one host function.
#include <cuda_runtime.h>

namespace {
constexpr int kTile = 32;
inline dim3 tiles(int n) { return dim3(n / kTile, n / kTile); }
} // namespace

// y = a * x: one read and one write per element.
__global__ void scale(const float *__restrict__ x, float *__restrict__ y,
                      float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}

// One thread per row, walking along it: the lanes of a warp are a row apart.
__global__ void row_sums(const float *__restrict__ m, float *__restrict__ out,
                         int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c)
    s += m[r * cols + c];
  out[r] = s;
}

// A tile through shared memory, read back down its columns: every lane of a
// warp reads bank threadIdx.y.
__global__ void transpose_tile(const float *__restrict__ in,
                               float *__restrict__ out, int n) {
  __shared__ float t[kTile][kTile];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  t[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  int ox = blockIdx.y * kTile + threadIdx.x;
  int oy = blockIdx.x * kTile + threadIdx.y;
  out[oy * n + ox] = t[threadIdx.x][threadIdx.y];
}

void run(const float *x, float *y, const float *m, float *sums, float *t) {
  const int n = 1 << 24, rows = 1 << 16, cols = 1024, side = 4096;
  scale<<<(n + 255) / 256, 256>>>(x, y, 2.f, n);
  row_sums<<<rows / 128, 128>>>(m, sums, rows, cols);
  transpose_tile<<<tiles(side), dim3(kTile, kTile)>>>(x, t, side);
}
