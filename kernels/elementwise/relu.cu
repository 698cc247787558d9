// relu.cu: rectified linear unit, y[i] = max(x[i], 0).
// fmaxf is a compare/select, not a FLOP: this kernel moves bytes only.

__global__ void relu(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = fmaxf(x[i], 0.0f);
  }
}

void launch_relu(const float *x, float *y, int n) {
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  relu<<<blocks, threads>>>(x, y, n);
}
