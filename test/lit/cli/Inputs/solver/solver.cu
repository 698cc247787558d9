// cuda-roofline: param n=1048576
// cuda-roofline: param cols=64
// A solver step on interleaved (array-of-structs) vectors: the layout
// helpers come from layout.cuh, the residual and update kernels are the
// file's own. Each access strides by the struct size across the warp.
#include "layout.cuh"

__global__ void residual(const float *a, const float *x, const float *b,
                         const float *w, float *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    r[i * 4] = w[i * 4] * (b[i * 4] - a[i * 4] * x[i * 4]);
}

__global__ void update(const float *p, const float *q, const float *s,
                       float *x, float *y, float *z, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i * 8] = alpha * p[i * 8];
    y[i * 8] = alpha * q[i * 8];
    z[i * 8] = alpha * s[i * 8];
  }
}

void step(float **m, float *v, float *r, float *x, int n, int cols) {
  gather_cols<<<(n + 255) / 256, 256>>>(m[0], m[1], m[2], m[3], v, n, cols);
  scatter_cols<<<(n + 255) / 256, 256>>>(v, m[0], m[1], m[2], m[3], n, cols);
  copy_cols<<<(n + 255) / 256, 256>>>(m[0], m[1], m[2], m[3], n, cols);
  residual<<<(n + 255) / 256, 256>>>(m[0], x, v, m[1], r, n);
  update<<<(n + 255) / 256, 256>>>(m[0], m[1], m[2], x, v, r, 0.5f, n);
}
