// Index arithmetic with __mul24 / __umul24, as pre-Fermi-era code and some
// image-processing kernels still write it.
__global__ void brighten(const unsigned char *in, unsigned char *out, int width, int height,
                         int gain) {
  int x = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
  int y = __mul24(blockIdx.y, blockDim.y) + threadIdx.y;
  if (x < width && y < height) {
    int i = __mul24(y, width) + x;
    int v = in[i] * gain;
    out[i] = v > 255 ? 255 : v;
  }
}

__global__ void scale_rows(float *m, const float *s, unsigned cols) {
  unsigned r = blockIdx.x;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x)
    m[__umul24(r, cols) + c] *= s[r];
}

void run(const unsigned char *in, unsigned char *out, int w, int h, float *m, const float *s,
         unsigned rows, unsigned cols) {
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  brighten<<<grid, block>>>(in, out, w, h, 3);
  scale_rows<<<rows, 256>>>(m, s, cols);
}
