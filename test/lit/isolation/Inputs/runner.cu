// A tutorial-style runner: several kernels in one file, launched from a
// host function; one kernel uses a construct nvcc accepts and clang
// rejects, one calls a device helper with an error, and one host function
// calls an API that does not exist. The others must still be analyzed.
#include <cuda/barrier>
#include <cstdio>
#include "ops.cuh"

__global__ void scale_kernel(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}

// nvcc accepts an initialized __shared__ barrier; clang rejects it.
__global__ void barrier_kernel(float *y, int n) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar = {};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 1.0f;
}

__device__ float clamp_helper(float v) {
  return v < 0.0f ? 0.0f : v * undeclared_gain;
}

__global__ void clamp_kernel(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = clamp_helper(y[i]);
}

__global__ void add_kernel(float *z, const float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] + y[i];
}

static void check_device() { cudaThreadSynchronizeLegacy(); }

void run_all(float *x, float *y, float *z, int n) {
  const int block = 256;
  scale_kernel<<<(n + block - 1) / block, block>>>(y, x, 2.0f, n);
  add_kernel<<<n / 128, 128>>>(z, x, y, n);
  axpy_kernel<float><<<n / 256, 256>>>(z, x, 3.0f, n);
  axpy_kernel<double><<<n / 256, 256>>>((double *)z, (const double *)x, 3.0, n);
}

int main() {
  int n = 1 << 20;
  float *x, *y, *z;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&z, n * sizeof(float));
  run_all(x, y, z, n);
  check_device();
  return 0;
}
