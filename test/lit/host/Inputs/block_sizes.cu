// A benchmark driver in the style of llm.c's dev/cuda files: every kernel
// is timed at each block size of a list, then the best one is kept.
#include "launch_utils.cuh"

#include <cstdio>

using util::ceil_div;

__global__ void add_kernel(float *out, const float *a, const float *b, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    out[i] = a[i] + b[i];
}

__global__ void scale_kernel(float *out, const float *in, float s, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    out[i] = s * in[i];
}

__global__ void copy_kernel(float *out, const float *in, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    out[i] = in[i];
}

void benchmark_add(float *out, const float *a, const float *b, int N) {
  int block_sizes[] = {64, 128, 256, 512};
  for (int block_size : block_sizes) {
    int grid_size = ceil_div(N, block_size);
    add_kernel<<<grid_size, block_size>>>(out, a, b, N);
    printf("block_size %4d | launched\n", block_size);
  }
}

void benchmark_scale(float *out, const float *in, int N) {
  int block_sizes[] = {32, 256, 1024};
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
    int block_size = block_sizes[j];
    scale_kernel<<<ceil_div(N, block_size), block_size>>>(out, in, 2.0f, N);
  }
}

// Powers of two from 32 up, skipping the small ones and stopping at the
// device's limit.
void sweep_copy(float *out, const float *in, int N) {
  const int max_threads = 512;
  for (int bs = 32; bs <= 1024; bs *= 2) {
    if (bs < 128)
      continue;
    if (bs > max_threads)
      break;
    copy_kernel<<<CEIL_DIV(N, bs), bs>>>(out, in, N);
  }
}

void tuned_copy(float *out, const float *in, int N) {
  for (int bs : {128, 1024})
    copy_kernel<<<ceil_div(N, bs), bs>>>(out, in, N);
}
