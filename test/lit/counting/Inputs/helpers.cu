// __device__ helpers: an inlinable one called three times, and a __noinline__ one.

__device__ float affine(float x, float a, float b) { return a * x + b; }

__device__ __noinline__ float dot3(const float *p, const float *q) {
  return p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
}

__global__ void use_helpers(int n, const float *x, const float *v, const float *w, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = affine(x[i], 2.0f, 1.0f);
    t = affine(t, 3.0f, -1.0f);
    t = affine(t, 0.5f, 0.25f);
    y[i] = t + dot3(v + 3 * i, w + 3 * i);
  }
}

void run_helpers(int n, const float *x, const float *v, const float *w, float *y) {
  use_helpers<<<(n + 127) / 128, 128>>>(n, x, v, w, y);
}
