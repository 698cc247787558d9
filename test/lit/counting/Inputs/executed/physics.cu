// Math the hardware expands, written as kernels in a user's project are.
#include "mathops.cuh"

// One IEEE division per element.
__global__ void normalize(const float *__restrict__ v, const float *__restrict__ w, float *out,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = safe_ratio(v[i], w[i]);
}

// Square root and arc tangent through a header helper; rsqrtf; expf.
__global__ void polar_gain(const float2 *pts, float *gain, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Polar p = to_polar(pts[i].x, pts[i].y);
  gain[i] = expf(-p.theta) * rsqrtf(p.r);
}

// sincosf into two outputs.
__global__ void rotate(const float *angle, float *c, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    sincosf(angle[i], &s[i], &c[i]);
}

// A product used twice: the back end fuses it into both adds.
__global__ void blend(const float *a, const float *b, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = 2.0f * a[i];
    float x = t + b[i];
    float y = t + a[i];
    o[i] = x * y;
  }
}

// A per-block sum through a float atomic on shared memory.
__global__ void block_sum(const float *x, float *sums, int n) {
  __shared__ float acc;
  if (threadIdx.x == 0)
    acc = 0.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&acc, x[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    sums[blockIdx.x] = acc;
}

void step(const float *v, const float *w, float *out, const float2 *pts, float *c, float *s,
          int n) {
  int blocks = (n + 255) / 256;
  normalize<<<blocks, 256>>>(v, w, out, n);
  polar_gain<<<blocks, 256>>>(pts, out, n);
  rotate<<<blocks, 256>>>(v, c, s, n);
  blend<<<blocks, 256>>>(v, w, out, n);
  block_sum<<<blocks, 256>>>(v, out, n);
}
