// Input of bank-advice.test: shared tiles whose bank conflicts need
// different fixes.
//
// pair_sums pads its rows of 64 floats by one, the [32][33] habit, yet each
// thread reads two neighbours of its row, so consecutive lanes are two words
// apart within one row: a conflict padding cannot touch.
// column_sums reads a column of an unpadded tile: lanes in different rows of
// one bank, which padding separates.

constexpr int kRow = 64;

__global__ void pair_sums(const float *in, float *out) {
  __shared__ float tile[32][kRow + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  const float *src = in + blockIdx.x * 32 * kRow;
  for (int c = tx; c < kRow; c += 32)
    tile[ty][c] = src[ty * kRow + c];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] =
      tile[ty][2 * tx] + tile[ty][2 * tx + 1];
}

__global__ void column_sums(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.x * 32 + ty) * 32 + tx];
  __syncthreads();
  if (ty == 0) {
    float s = 0.0f;
    for (int r = 0; r < 32; ++r)
      s += tile[tx][r];
    out[blockIdx.x * 32 + tx] = s;
  }
}

void launch(const float *in, float *out, int blocks) {
  pair_sums<<<blocks, dim3(32, 32)>>>(in, out);
  column_sums<<<blocks, dim3(32, 32)>>>(in, out);
}
