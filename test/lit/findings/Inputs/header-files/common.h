#pragma once
// What the .cu files of a project share: device helpers and a kernel
// template. The findings about them are about this file's lines.

// Copies a run of 4 consecutive floats, one float at a time.
__device__ inline void copy_run(float *out, const float *in, int first) {
  for (int j = 0; j < 4; ++j)
    out[first + j] = in[first + j];
}

// Element (row, col) of a row-major matrix with ld columns.
__device__ inline float at(const float *m, int row, int col, int ld) {
  return m[row * ld + col];
}

// Stores v at out[i] when i is in bounds.
__device__ inline void store_if(float *out, int i, int n, float v) {
  if (i < n)
    out[i] = v;
}

// Thread t reads row t of a matrix with LD columns.
template <int LD>
__global__ void column_scale(float *out, const float *in) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = 2.0f * in[t * LD];
}

// Sums the first count[i] floats of row: how many is data, which no
// static analysis knows.
__device__ inline float prefix_sum(const float *row, const int *count, int i) {
  float s = 0.0f;
  for (int k = 0; k < count[i]; ++k)
    s += row[k];
  return s;
}
