// tiled.cu: out = transpose(in) for a row-major M x N matrix in
// (out is N x M), staged through shared memory so that both the global
// reads and the global writes are coalesced. Each 32x8 block moves one
// 32x32 tile, 4 elements per thread; the tile row is padded to 33 floats so
// that reading a tile column hits 32 different banks. Edge tiles are guarded.

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void transpose_tiled(const float *in, float *out, int M, int N) {
  __shared__ float tile[kTile][kTile + 1];

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

void launch_transpose_tiled(const float *in, float *out, int M, int N) {
  dim3 block(kTile, kRows);
  dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  transpose_tiled<<<grid, block>>>(in, out, M, N);
}
