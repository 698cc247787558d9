// printf and assert in kernels: device printf is a call to vprintf, assert a
// call to __assertfail on the failing path. Neither is an unknown.
#include <cassert>
#include <cstdio>

__global__ void scale_print(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("scale_print: n = %d\n", n);
  if (i < n) x[i] = x[i] * 2.0f;
}

__global__ void scale_assert(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    assert(v >= 0.0f);
    x[i] = v * 2.0f;
  }
}

void run(float *x, int n) {
  scale_print<<<(n + 255) / 256, 256>>>(x, n);
  scale_assert<<<(n + 255) / 256, 256>>>(x, n);
}
