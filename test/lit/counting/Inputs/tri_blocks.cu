// Work that depends on the block index: block b sums the first b+1 rows of
// `partials` (trip count blockIdx.x + 1), and a lower-triangular tile sweep
// that skips whole blocks above the diagonal.

__global__ void prefix_over_blocks(const float *partials, float *offsets) {
  int b = blockIdx.x;
  int t = threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k <= b; ++k)
    s += partials[k * blockDim.x + t];
  offsets[b * blockDim.x + t] = s;
}

__global__ void tril_tiles(const float *A, float *B, int n) {
  if (blockIdx.x > blockIdx.y)
    return;
  int c = blockIdx.x * 16 + threadIdx.x;
  int r = blockIdx.y * 16 + threadIdx.y;
  if (r < n && c < n)
    B[r * n + c] = 2.0f * A[r * n + c];
}

// The same accumulation as a loop over a parameter bound with a `break` on the block index:
// min(nrows, blockIdx.x + 1) iterations.
__global__ void prefix_break(const float *partials, float *offsets, int nrows) {
  int b = blockIdx.x;
  int t = threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < nrows; ++k) {
    if (k > b)
      break;
    s += partials[k * blockDim.x + t];
  }
  offsets[b * blockDim.x + t] = s;
}

void launch_tri_blocks(const float *partials, float *offsets, int parts, const float *A, float *B,
                       int n) {
  int nb = parts / 32;
  prefix_over_blocks<<<nb, 32>>>(partials, offsets);
  dim3 tiles((n + 15) / 16, (n + 15) / 16);
  tril_tiles<<<tiles, dim3(16, 16)>>>(A, B, n);
  prefix_break<<<nb, 32>>>(partials, offsets, nb - 3);
}
