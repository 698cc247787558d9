// Two Hopper-only kernels beside a portable one, in one file: built for an
// A100, ptxas refuses each Hopper kernel, and the portable one is still
// assembled (its registers, and so its occupancy, are known).
#include <cuda_runtime.h>

__global__ void fenced_scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  if (i < n)
    x[i] *= 2.0f;
}

__global__ void cluster_offset(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (i < n)
    x[i] += float(rank);
}

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void run(float *x, float *y, int n) {
  int blocks = (n + 255) / 256;
  fenced_scale<<<blocks, 256>>>(x, n);
  cluster_offset<<<blocks, 256>>>(x, n);
  saxpy<<<blocks, 256>>>(n, 2.0f, x, y);
}
