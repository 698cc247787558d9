// 256-bin byte histogram, atomicAdd straight into global memory, grid-stride.

__global__ void hist_global(const unsigned char *data, unsigned int *bins, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&bins[data[i]], 1u);
}

void launch_hist_global(const unsigned char *data, unsigned int *bins, int n) {
  int blocks = 8;
  hist_global<<<blocks, 128>>>(data, bins, n);
}
