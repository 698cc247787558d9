// Input of config-lint.test, copied two directories below a
// .cuda-roofline.yaml that gives n, the GPU and the lint settings. The
// block sweeps the n steps 3 times; at each step the 8 rows read the same 128
// floats of a, and the 4 warps of a row the same weight of b (a row of 8
// weights a step, one per row ty). A warp reads a sector of either again
// only in the next sweep, after the block has loaded all of a and b once:
// at n = 1024, more than L1 keeps.
// cuda-roofline: launch cfg_kernel=1/128,8
__global__ void cfg_kernel(const float *a, const float *b, const float *c,
                           float *out, int n) {
  int tx = threadIdx.x, ty = threadIdx.y;
  float v = 0.0f;
  for (int sweep = 0; sweep < 3; ++sweep)
    for (int k = 0; k < n; ++k) {
      float w = b[k * 8 + ty];
      v += w * a[k * 128 + tx];
    }
  v += c[(ty * 128 + tx) * 8];
  out[ty * 128 + tx] = v;
}
