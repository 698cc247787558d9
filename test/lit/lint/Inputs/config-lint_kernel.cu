// Input of config-lint.test, copied two directories below a
// .cuda-roofline.yaml that gives n, the GPU and the lint settings. The 32
// warps of the block (4 per row ty) all read w = b[k]; the 8 rows read the
// same n x 128 floats of a.
// cuda-roofline: launch cfg_kernel=1/128,8
__global__ void cfg_kernel(const float *a, const float *b, const float *c,
                           float *out, int n) {
  int tx = threadIdx.x, ty = threadIdx.y;
  float v = 0.0f;
  for (int k = 0; k < n; ++k) {
    float w = b[k];
    v += w * a[k * 128 + tx];
  }
  v += c[(ty * 128 + tx) * 8];
  out[ty * 128 + tx] = v;
}
