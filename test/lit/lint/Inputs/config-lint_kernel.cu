// Input of config-lint.test, copied two directories below a
// .cuda-roofline.yaml that gives n, the GPU and the lint settings.
// cuda-roofline: launch cfg_kernel=1/32,8
__global__ void cfg_kernel(const float *a, const float *b, const float *c,
                           float *out, int n) {
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx >= n)
    return;
  float v = a[tx];
  v += b[ty];
  v += c[(ty * 32 + tx) * 8];
  out[ty * 32 + tx] = v;
}
