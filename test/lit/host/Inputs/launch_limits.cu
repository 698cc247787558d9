// Launch configurations the hardware rejects: a grid of 0 blocks and a block of
// 2048 threads (above the 1024-thread limit of every CUDA GPU). Each launch
// fails at run time with cudaErrorInvalidConfiguration, so nothing executes.
__global__ void zero_grid(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] + 1.0f;
}

__global__ void big_block(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] + 1.0f;
}

void run(float *x, int n) {
  zero_grid<<<0, 256>>>(x, n);
  big_block<<<(n + 2047) / 2048, 2048>>>(x, n);
}
