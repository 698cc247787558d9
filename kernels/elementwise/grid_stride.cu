// grid_stride.cu: affine map y[i] = a * x[i] + b with a grid-stride loop.
// The launch size is fixed (1024 blocks of 256 threads) whatever n is; each
// thread handles elements i, i + 262144, i + 2*262144, ... below n.

__global__ void affine_grid_stride(int n, float a, float b, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + b;
  }
}

void launch_affine_grid_stride(int n, float a, float b, const float *x, float *y) {
  const int threads = 256;
  const int blocks = 1024;
  affine_grid_stride<<<blocks, threads>>>(n, a, b, x, y);
}
