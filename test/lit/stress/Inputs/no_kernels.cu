// No kernel defined here: device helpers, host code, __constant__ data, and a
// kernel that is only declared (defined in another translation unit, -rdc)
// but launched from the host.
#include <cuda_runtime.h>

__constant__ float coeffs[16];

__device__ float horner(float x) {
  float r = 0.0f;
  for (int k = 15; k >= 0; --k)
    r = r * x + coeffs[k];
  return r;
}

__host__ __device__ inline int div_up(int a, int b) { return (a + b - 1) / b; }

__global__ void defined_elsewhere(const float *x, float *y, int n);

int launch_external(const float *x, float *y, int n) {
  defined_elsewhere<<<div_up(n, 256), 256>>>(x, y, n);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
