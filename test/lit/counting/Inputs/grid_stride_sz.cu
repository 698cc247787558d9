// Grid-stride loop with a size_t index, in-place update.

__global__ void scale_inplace(size_t n, float a, float *x) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    x[i] = x[i] * a;
}

void run_scale_inplace(size_t n, float a, float *x) {
  scale_inplace<<<64, 256>>>(n, a, x);
}
