// Shared-memory tree reduction, one partial sum per block.

__global__ void block_sum(const float *x, float *out) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  buf[t] = x[blockIdx.x * 256 + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}

void run_block_sum(const float *x, float *out) {
  block_sum<<<4, 256>>>(x, out);
}
