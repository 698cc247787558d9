// Includes a header that exists nowhere on the include path.
#include "no_such_header_foreign3.cuh"

__global__ void uses_header(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2.0f;
}
