#pragma once
// Helpers shared by the kernels of place.cu.

// The sum of a row of n floats: with one row per thread, lanes are n
// floats apart.
__device__ inline float row_sum(const float *row, int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += row[k];
  return s;
}

// Stages BM rows of 32 floats per block through shared memory; thread r
// writes row r % BM of the tile.
template <int BM>
__global__ void tiled_copy(float *out, const float *in) {
  __shared__ float tile[BM][32];
  int r = threadIdx.x;
  for (int c = 0; c < 32; ++c)
    tile[r % BM][c] = in[blockIdx.x * 32 * BM + r * 32 + c];
  __syncthreads();
  out[blockIdx.x * 32 * BM + r] = tile[0][r % 32];
}
