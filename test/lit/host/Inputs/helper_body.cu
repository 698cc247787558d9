// Launch sizes chosen by helper functions with real bodies: a block size
// picked by ifs on the problem size, a capped grid, and a reduction whose
// block is the next power of two of the row length.
#include "launch_utils.cuh"

__global__ void relu_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fmaxf(x[i], 0.0f);
}

// One block per row; the block's threads stride over the row's columns.
__global__ void row_sum_kernel(const float *in, float *out, int cols) {
  extern __shared__ float partial[];
  const float *row = in + blockIdx.x * cols;
  float acc = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    acc += row[c];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

void relu(float *x, int n) {
  const int block = util::pick_block_size(n);
  relu_kernel<<<util::ceil_div(n, block), block>>>(x, n);
}

void row_sum(const float *in, float *out, int rows, int cols) {
  int threads = std::min(util::next_pow2(cols), 1024);
  size_t smem = threads * sizeof(float);
  row_sum_kernel<<<rows, threads, smem>>>(in, out, cols);
}
