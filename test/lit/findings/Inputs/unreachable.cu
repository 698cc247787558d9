// Code that no thread of the launch runs: its accesses are no finding.
__global__ void copy_tail(float *y, const float *x, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
  // A path for threads past n + 1024, which the launch below (n / 256
  // blocks of 256 for an n that 256 divides) never has.
  if (i >= n + 1024)
    y[i * stride] = x[i * stride];
}

void run(float *y, const float *x, int n) {
  copy_tail<<<n / 256, 256>>>(y, x, n, 32);
}
