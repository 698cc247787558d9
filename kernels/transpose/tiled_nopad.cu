// tiled_nopad.cu: out = transpose(in) for a row-major M x N matrix in (out
// is N x M), staged through shared memory like tiled.cu but with the tile
// row NOT padded: tile[32][32]. Writing a row of the tile is conflict-free,
// but reading a column (tile[threadIdx.x][...]) puts the 32 lanes of a warp
// 128 bytes apart, all in one bank: a 32-way bank conflict. tiled.cu pads
// the row to 33 floats to remove it. Kept as the counter-example.

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void transpose_tiled_nopad(const float *in, float *out, int M, int N) {
  __shared__ float tile[kTile][kTile];

  int col = blockIdx.x * kTile + threadIdx.x;  // column of in
  int row = blockIdx.y * kTile + threadIdx.y;  // first row of in for this thread
  for (int k = 0; k < kTile; k += kRows) {
    if (row + k < M && col < N) {
      tile[threadIdx.y + k][threadIdx.x] = in[(row + k) * N + col];
    }
  }
  __syncthreads();

  int ocol = blockIdx.y * kTile + threadIdx.x;  // column of out = row of in
  int orow = blockIdx.x * kTile + threadIdx.y;  // first row of out = column of in
  for (int k = 0; k < kTile; k += kRows) {
    if (orow + k < N && ocol < M) {
      out[(orow + k) * M + ocol] = tile[threadIdx.x][threadIdx.y + k];
    }
  }
}

void launch_transpose_tiled_nopad(const float *in, float *out, int M, int N) {
  dim3 block(kTile, kRows);
  dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  transpose_tiled_nopad<<<grid, block>>>(in, out, M, N);
}
