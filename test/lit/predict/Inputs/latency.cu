// Two reductions over the same rows: one thread per row, and the rows
// spread over the whole GPU. A user's first version and its fix.
#include <cuda_runtime.h>

// One thread per column of a column-major matrix: each walks its column.
// The loop is kept rolled, so each iteration waits for its load.
__global__ void column_sums(const float *__restrict__ m, float *sums,
                            int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.f;
#pragma unroll 1
  for (int r = 0; r < rows; ++r)
    s += m[r * cols + c];
  sums[c] = s;
}

// The same sums with a block per column chunk of rows: many more warps.
__global__ void column_sums_split(const float *__restrict__ m, float *parts,
                                  int rows, int cols, int chunk) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r0 = blockIdx.y * chunk;
  if (c >= cols)
    return;
  float s = 0.f;
#pragma unroll 1
  for (int r = r0; r < r0 + chunk; ++r)
    s += m[r * cols + c];
  parts[blockIdx.y * cols + c] = s;
}

static int blocksFor(int n, int threads) { return (n + threads - 1) / threads; }

void sums(const float *m, float *sums_out, float *parts) {
  const int rows = 1024, cols = 128, threads = 64;
  column_sums<<<blocksFor(cols, threads), threads>>>(m, sums_out, rows, cols);
  const int chunk = 8;
  dim3 grid(blocksFor(cols, threads), rows / chunk);
  column_sums_split<<<grid, threads>>>(m, parts, rows, cols, chunk);
}
