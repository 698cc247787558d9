// A __forceinline__ helper from a local header included through -I after "--".
#include <helpers/mathx.cuh>

__global__ void poly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = horner3(x[i], 1.0f, 2.0f, 3.0f, 4.0f);
}

void run(const float *x, float *y, int n) {
  poly<<<(n + 255) / 256, 256>>>(x, y, n);
}
