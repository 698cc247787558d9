// Kernels that use common.h's helpers, and launches of common.h's template
// and of pre.cuh's kernel, which this file does not include: it is
// pre-included.
#include "common.h"

__global__ void runs(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  copy_run(out, in, i * 4);
}

__global__ void row_sums(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 4; ++k)
    s += at(in, i, k, 4);
  store_if(out, i, n, s);
}

__global__ void counted_sums(float *out, const float *in, const int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = prefix_sum(in, count, i);
}

void launch(float *out, const float *in, const int *count, int n) {
  runs<<<n / 1024, 256>>>(out, in);
  row_sums<<<n / 256, 256>>>(out, in, n);
  column_scale<64><<<n / 256, 256>>>(out, in);
  pre_gather<<<n / 256, 256>>>(out, in, n);
  counted_sums<<<n / 256, 256>>>(out, in, count);
}
