// Grid-stride loops over unsigned sizes: a size_t loop and an unsigned int loop,
// launch size computed on the host in unsigned arithmetic and clamped.

__global__ void axpy_size_t(size_t n, float a, const float *x, float *y) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void neg_u32(unsigned int n, const float *x, float *y) {
  unsigned int stride = gridDim.x * blockDim.x;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = -x[i] * 0.5f;
}

void launch_unsigned(unsigned int rows, unsigned int cols, float a, const float *x, float *y) {
  unsigned int total = rows * cols;
  unsigned int blocks = (total + 255u) / 256u;
  if (blocks > 32u)
    blocks = 32u;
  axpy_size_t<<<blocks, 256u>>>((size_t)total, a, x, y);
  neg_u32<<<blocks / 2u, 512u>>>(total, x, y);
}
