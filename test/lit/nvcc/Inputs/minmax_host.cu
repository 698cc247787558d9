// Written for nvcc: host code calls min and max unqualified with mixed
// argument types (unsigned and int, long and unsigned long, double and
// float), which nvcc's crt/math_functions.hpp defines as __host__
// __device__ overloads; clang declares min and max for the device only.
#include <cstddef>
#include <cstdio>

// Rows of `cols` floats that fit a 1024-thread block, at least one.
static unsigned rowsPerBlock(unsigned cols) {
  return max(1024u / max(cols, 1u), 1);
}

// Each thread sums one row of a row-major matrix.
__global__ void row_sum(const float *m, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += m[(size_t)r * cols + c];
    sums[r] = s;
  }
}

__global__ void clamp(float *x, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = min(max(x[i], lo), hi);
}

int main() {
  const int rows = 8192, cols = 512;
  const size_t bytes = (size_t)rows * cols * sizeof(float);
  const long budget = 1L << 30;
  float *m, *sums;
  cudaMalloc(&m, min(budget, bytes));
  cudaMalloc(&sums, rows * sizeof(float));
  row_sum<<<rows / 256, 256>>>(m, sums, rows, cols);
  clamp<<<rows * cols / 256, 256>>>(m, 0.0f, 1.0f, rows * cols);
  cudaDeviceSynchronize();
  printf("%u rows per block, scale %g\n", rowsPerBlock(cols),
         max(0.5, 2.0f));
  return 0;
}
