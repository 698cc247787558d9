// Indices built with bit operations on constants, as FFT, bitonic-sort and
// pairwise kernels write them.
__global__ void butterfly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + x[i ^ 1];
}

__global__ void pair_sums(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i & ~1] + x[i | 1];
}

__global__ void every_16th(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[(i & 16) * 4];
}

void run(const float *x, float *y) {
  const int n = 1 << 24;
  butterfly<<<n / 256, 256>>>(x, y, n);
  pair_sums<<<n / 256, 256>>>(x, y, n);
  every_16th<<<n / 256, 256>>>(x, y, n);
}
