// Block-wide inclusive scan (Hillis-Steele) in dynamic shared memory, one element
// per thread.

__global__ void scan_hillis_steele(const float *in, float *out, int n) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  buf[t] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off *= 2) {
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

void launch_scan(const float *in, float *out, int n) {
  int threads = 128;
  scan_hillis_steele<<<(n + threads - 1) / threads, threads, threads * sizeof(float)>>>(in, out, n);
}
