// interleaved.cu: the first reduction most people write. Each block sums its
// blockDim.x elements in shared memory with a stride that doubles, the
// threads at multiples of twice the stride adding their partner's value
// (`tid % (2 * stride) == 0`: divergent warps and a 2-way bank conflict
// that later versions remove), and writes one partial sum per block.

constexpr int kInterleavedThreads = 256;

__global__ void reduce_interleaved(const float *in, float *out, int n) {
  extern __shared__ float partial[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

void launch_reduce_interleaved(const float *in, float *out, int n) {
  int blocks = (n + kInterleavedThreads - 1) / kInterleavedThreads;
  reduce_interleaved<<<blocks, kInterleavedThreads,
                       kInterleavedThreads * sizeof(float)>>>(in, out, n);
}
