// A kernel in a .cuh header is analyzed as CUDA.
__global__ void halve(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * 0.5f;
}
