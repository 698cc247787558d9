// Stencils: 1-D 3-point (halo x[i-1], x[i+1]) and 2-D 5-point Jacobi.

__global__ void stencil3(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i < n - 1)
    y[i] = 0.25f * x[i - 1] + 0.5f * x[i] + 0.25f * x[i + 1];
}

__global__ void jacobi5(int nx, int ny, const float *u, float *v) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1)
    v[y * nx + x] = 0.25f * (u[y * nx + x - 1] + u[y * nx + x + 1] +
                             u[(y - 1) * nx + x] + u[(y + 1) * nx + x]);
}

void run_stencils(int n, int nx, int ny, const float *x, float *y, const float *u, float *v) {
  stencil3<<<(n + 255) / 256, 256>>>(n, x, y);
  dim3 block(16, 16);
  dim3 grid((nx + 15) / 16, (ny + 15) / 16);
  jacobi5<<<grid, block>>>(nx, ny, u, v);
}
