// A kernel launched only through cudaLaunchKernel (no <<<>>>): the tool sees
// no call site it can evaluate, so without --launch it gives per-thread
// formulas only; with --launch it gives full numbers.
#include <cuda_runtime.h>

__global__ void saxpy_api(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void run(int n, float a, const float *x, float *y) {
  void *args[] = {&n, &a, &x, &y};
  dim3 grid((n + 255) / 256), block(256);
  cudaLaunchKernel((const void *)saxpy_api, grid, block, args, 0, 0);
}
