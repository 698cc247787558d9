// Triangular in threadIdx: thread t of a block sums the t elements of its
// block's segment that come before it (naive exclusive prefix sum).

__global__ void prefix_naive(const float *x, float *y) {
  float s = 0.0f;
  for (int j = 0; j < threadIdx.x; ++j)
    s += x[blockIdx.x * blockDim.x + j];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

void run_prefix(int n, const float *x, float *y) {
  prefix_naive<<<n / 128, 128>>>(x, y);
}
