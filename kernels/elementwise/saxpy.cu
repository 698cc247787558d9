// saxpy.cu: single-precision a*x plus y, in place: y[i] = a * x[i] + y[i].
// One thread per element, 256-thread blocks, the tail block is guarded.
// The multiply-add contracts to one fma (2 FLOPs); x[i] and y[i] are read,
// y[i] is written.

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

void launch_saxpy(int n, float a, const float *x, float *y) {
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  saxpy<<<blocks, threads>>>(n, a, x, y);
}
