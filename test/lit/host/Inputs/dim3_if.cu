// Launch shape computed through a helper variable that an if / else-if chain reassigns.

__global__ void sq_plus3(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i] + 3.0f;
}

void launch_sq_plus3(const float *x, float *y, int n) {
  int threads = 128;
  if (n > 100000)
    threads = 1024;
  else if (n > 4096)
    threads = 512;
  dim3 block(threads);
  dim3 grid((n + threads - 1) / threads);
  sq_plus3<<<grid, block>>>(x, y, n);
}
