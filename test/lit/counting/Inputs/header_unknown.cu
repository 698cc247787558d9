// The data-dependent branch lives in an included header (hdr_branch.cuh).
#include "hdr_branch.cuh"

__global__ void hdr_user(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    store_if_positive(x, y, i);
}

void run_hdr_user(int n, const float *x, float *y) {
  hdr_user<<<(n + 255) / 256, 256>>>(n, x, y);
}
