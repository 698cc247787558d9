// Geometric loop counters with constant start/bound (the usual #define'd block size):
// a shared-memory tree reduction with s = 128, 64, ..., 1, and a Hillis-Steele scan with
// off = 1, 2, ..., 64 (< 128). The guards t < s / t >= off use the geometric counter.

__global__ void tree_sum_const(const float *x, float *out) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  buf[t] = x[blockIdx.x * 256 + t];
  for (int s = 128; s > 0; s >>= 1) {
    __syncthreads();
    if (t < s)
      buf[t] += buf[t + s];
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}

__global__ void scan_hs_const(const float *in, float *out, int n) {
  __shared__ float buf[128];
  int t = threadIdx.x;
  int i = blockIdx.x * 128 + t;
  buf[t] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (int off = 1; off < 128; off *= 2) {
    float v = 0.0f;
    if (t >= off)
      v = buf[t - off];
    __syncthreads();
    if (t >= off)
      buf[t] += v;
    __syncthreads();
  }
  if (i < n)
    out[i] = buf[t];
}

void launch_geometric_const(const float *x, float *out, const float *in, float *sout, int n) {
  tree_sum_const<<<4, 256>>>(x, out);
  scan_hs_const<<<(n + 127) / 128, 128>>>(in, sout, n);
}
