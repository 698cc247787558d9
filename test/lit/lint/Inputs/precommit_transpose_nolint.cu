// Naive transpose: the store walks a column, `rows` elements between lanes.
// Sizes come from the project's .cuda-roofline.yaml.
__global__ void transpose(int rows, int cols, const float *in, float *out) {
  int c = blockIdx.x * 32 + threadIdx.x;
  int r = blockIdx.y * 8 + threadIdx.y;
  if (r < rows && c < cols)
    // Accepted: a tiled version is in transpose_tiled.cu.
    // NOLINTNEXTLINE(roofline-uncoalesced-access)
    out[c * rows + r] = in[r * cols + c];
}
void launch_transpose(int rows, int cols, const float *in, float *out) {
  transpose<<<dim3(cols / 32, rows / 8), dim3(32, 8)>>>(rows, cols, in, out);
}
