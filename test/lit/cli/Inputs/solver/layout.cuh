// Row-major helpers, included by solver.cu. One thread per row of a
// row-major matrix: every access below strides by a whole row (cols
// elements) across the warp.
#pragma once

__global__ void gather_cols(const float *a, const float *b, const float *c,
                            const float *d, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    out[r] = a[r * cols] + b[r * cols] + c[r * cols] + d[r * cols];
}

__global__ void scatter_cols(const float *in, float *a, float *b, float *c,
                             float *d, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float v = in[r];
    a[r * cols] = v;
    b[r * cols] = 2.0f * v;
    c[r * cols] = 3.0f * v;
    d[r * cols] = 4.0f * v;
  }
}

__global__ void copy_cols(const float *a, const float *b, float *c, float *d,
                          int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    c[r * cols] = a[r * cols];
    d[r * cols] = b[r * cols];
  }
}
