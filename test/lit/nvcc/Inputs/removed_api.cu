// Written for CUDA 11: runtime functions that later toolkits removed
// (cudaThread* for cudaDevice*, the int-device cudaMemAdvise and
// cudaMemPrefetchAsync of CUDA 12 and earlier). CUDA 13's nvcc rejects the
// file as clang does; the prelude maps each to its successor.
#include <cstdio>

__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}

__global__ void iota(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += i;
}

int main() {
  const int n = 1 << 16;
  int *d;
  cudaThreadSetLimit(cudaLimitMallocHeapSize, 64 << 20);
  cudaThreadSetCacheConfig(cudaFuncCachePreferL1);
  cudaMallocManaged(&d, n * sizeof(int));
  cudaMemAdvise(d, n * sizeof(int), cudaMemAdviseSetPreferredLocation, 0);
  cudaMemPrefetchAsync(d, n * sizeof(int), 0);
  fill<<<n / 256, 256>>>(d, 7, n);
  cudaThreadSynchronize();
  iota<<<n / 512, 512>>>(d, n);
  cudaThreadSynchronize();
  cudaMemPrefetchAsync(d, n * sizeof(int), cudaCpuDeviceId);
  size_t heap;
  cudaThreadGetLimit(&heap, cudaLimitMallocHeapSize);
  printf("%d %zu\n", d[n - 1], heap);
  cudaFree(d);
  cudaThreadExit();
  return 0;
}
