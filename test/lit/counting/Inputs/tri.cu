// Triangular loops. tri_nest: every thread walks the whole lower triangle
// (for i < n; for j <= i). trmv_lower: lower-triangular mat-vec, the inner
// trip count depends on the thread's row.

__global__ void tri_nest(int n, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      s += a[i * n + j];
  out[t] = s;
}

__global__ void trmv_lower(int n, const float *L, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j <= i; ++j)
      s += L[i * n + j] * x[j];
    y[i] = s;
  }
}

void run_tri(int n, const float *a, float *out, const float *L, const float *x, float *y) {
  tri_nest<<<2, 64>>>(n, a, out);
  trmv_lower<<<(n + 63) / 64, 64>>>(n, L, x, y);
}
