// Column sums that skip rows with `continue`: an index-pattern skip (countable),
// a data-dependent skip the compiler turns into a select (the FMA runs every
// iteration), and a data-dependent skip guarding a second load (not countable).

__global__ void colsum_skip(const float *A, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) {
    if (r % 3 == 1)
      continue;
    s += A[r * cols + c];
  }
  out[c] = s;
}

__global__ void colsum_nonneg(const float *A, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) {
    float v = A[r * cols + c];
    if (v < 0.0f)
      continue;
    s += v * v;
  }
  out[c] = s;
}

__global__ void colsum_weighted(const float *A, const float *W, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) {
    float v = A[r * cols + c];
    if (v < 0.0f)
      continue;
    s += v * W[r];
  }
  out[c] = s;
}

// The skip depends on the thread as well as on the loop variable.
__global__ void colsum_diag_skip(const float *A, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) {
    if ((r + c) % 3 == 0)
      continue;
    s += A[r * cols + c];
  }
  out[c] = s;
}

void launch_colsum(const float *A, const float *W, float *out, int rows, int cols) {
  colsum_skip<<<(cols + 63) / 64, 64>>>(A, out, rows, cols);
  colsum_nonneg<<<(cols + 63) / 64, 64>>>(A, out, rows, cols);
  colsum_weighted<<<(cols + 63) / 64, 64>>>(A, W, out, rows, cols);
  colsum_diag_skip<<<(cols + 63) / 64, 64>>>(A, out, rows, cols);
}
