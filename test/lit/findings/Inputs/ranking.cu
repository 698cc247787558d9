// Three kernels whose findings cost different amounts, in the opposite of
// source order: reports list the most costly first.
#define TILE 32

// Each thread writes 4 consecutive floats one at a time.
__global__ void fill4(float *c, float v, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t * 4 < n)
    for (int j = 0; j < 4; ++j)
      c[t * 4 + j] = v;
}

// Transpose through an unpadded tile: the column read conflicts.
__global__ void transpose_tile(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  int ox = blockIdx.y * TILE + threadIdx.x;
  int oy = blockIdx.x * TILE + threadIdx.y;
  out[oy * n + ox] = tile[threadIdx.x][threadIdx.y];
}

// Transpose straight from global memory: the store is strided.
__global__ void transpose_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    out[x * n + y] = in[y * n + x];
}

// One kernel with two findings, the cheaper first in source: four floats
// stored one at a time, then a store 32 floats apart per lane.
__global__ void fill_scatter(float *c, float *d, float v) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 4; ++j)
    c[t * 4 + j] = v;
  d[t * 32] = v;
}

void run_all(float *a, const float *b, float *c, int n) {
  fill4<<<(n * n / 4 + 255) / 256, 256>>>(c, 1.0f, n * n);
  dim3 block(TILE, TILE);
  dim3 grid(n / TILE, n / TILE);
  transpose_tile<<<grid, block>>>(b, a, n);
  dim3 b8(32, 8);
  dim3 g8(n / 32, n / 8);
  transpose_naive<<<g8, b8>>>(b, a, n);
  fill_scatter<<<n / 256, 256>>>(a, c, 2.0f);
}
