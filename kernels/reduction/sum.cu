// sum.cu: first pass of a float sum reduction. Each block of 256 threads
// sums its 256 input elements (0 beyond n) and writes one partial sum to
// out[blockIdx.x]; a second launch (or the host) adds the partials.
// Shared-memory tree down to 64 values, then warp 0 adds the last pair of
// halves and finishes with register shuffles.

constexpr int kSumThreads = 256;

__global__ void reduce_sum(const float *in, float *out, int n) {
  __shared__ float sdata[kSumThreads];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  float v = 0.0f;
  if (i < n) {
    v = in[i];
  }
  sdata[tid] = v;
  __syncthreads();

  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid < 32) {
    float w = sdata[tid] + sdata[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1) {
      w += __shfl_down_sync(0xffffffffu, w, offset);
    }
    if (tid == 0) {
      out[blockIdx.x] = w;
    }
  }
}

void launch_reduce_sum(const float *in, float *out, int n) {
  const int blocks = (n + kSumThreads - 1) / kSumThreads;
  reduce_sum<<<blocks, kSumThreads>>>(in, out, n);
}
