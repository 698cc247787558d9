// Gathers whose addresses no range of threads is affine in: a quadratic
// residue table and a triangle packed by rows.
#include <cuda_runtime.h>

__global__ void gather_squares(float *y, const float *x, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[(i * i) % n];
}

template <typename T>
__global__ void scale_rows(T *out, const T *in, const T *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * w[(i * i) % 4093];
}

void run(float *y, const float *x, const float *w) {
  const long long n = 1 << 20;
  gather_squares<<<(unsigned)(n / 256), 256>>>(y, x, n);
  scale_rows<float><<<4096, 256>>>(y, x, w, 1 << 20);
}
