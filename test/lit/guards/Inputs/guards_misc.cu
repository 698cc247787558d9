// Guards: index modulo 3, one thread per block, 2-D early return (transpose), 3-D grid.

__global__ void every_third(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 3 == 0)
    x[i] += 1.0f;
}

__global__ void block_leader(int n, float *x) {
  if (threadIdx.x == 0)
    for (int i = 0; i < n; ++i)
      x[blockIdx.x * n + i] *= 2.0f;
}

__global__ void transpose_ret(int M, int N, const float *a, float *b) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M || c >= N)
    return;
  b[c * M + r] = a[r * N + c];
}

__global__ void inc3d(int nx, int ny, int nz, float *u) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz)
    u[(z * ny + y) * nx + x] += 1.0f;
}

void run_guards(int n, int M, int N, int nx, int ny, int nz, float *x, const float *a, float *b, float *u) {
  every_third<<<4, 256>>>(x);
  block_leader<<<8, 64>>>(n, x);
  transpose_ret<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8)>>>(M, N, a, b);
  inc3d<<<dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4), dim3(8, 8, 4)>>>(nx, ny, nz, u);
}
