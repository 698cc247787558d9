// Kernels whose integer arguments come from their call sites, launched
// elsewhere at sizes the user gives with --launch.
#include "launch_utils.cuh"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void gather(float *out, const float *in, const int *idx, int n,
                       int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i] * stride];
}

void run_saxpy(const float *x, float *y) {
  const int n = 1 << 20;
  saxpy<<<util::ceil_div(n, 256), 256>>>(n, 2.0f, x, y);
}

// Two call sites that agree on the stride and not on n.
void run_gather(float *out, const float *in, const int *idx) {
  gather<<<4, 256>>>(out, in, idx, 1000, 2);
  gather<<<8, 256>>>(out, in, idx, 2000, 2);
}
