// cuda-roofline: gpu a100-80gb-sxm
// cuda-roofline: param height=4096
// cuda-roofline: param width=8192
// Column statistics of a row-major matrix, for the A100 nodes: one thread
// per column, each step of the loop reads a row (coalesced).
__global__ void col_norms(const float *m, float *out, int height, int width) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= width)
    return;
  float s = 0.0f;
  for (int r = 0; r < height; ++r)
    s += m[r * width + c] * m[r * width + c];
  out[c] = s;
}

__global__ void col_means(const float *m, float *out, int height, int width) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= width)
    return;
  float s = 0.0f;
  for (int r = 0; r < height; ++r)
    s += m[r * width + c];
  out[c] = s / height;
}

void stats(const float *m, float *norm, float *mean, int height, int width) {
  col_norms<<<(width + 127) / 128, 128>>>(m, norm, height, width);
  col_means<<<(width + 127) / 128, 128>>>(m, mean, height, width);
}
