// A loop bound one thread computes into shared memory from the kernel's
// arguments, then every thread reads after the barrier (a pattern from
// segmented reductions and CUB-era code).
__global__ void segment_sum(const float *x, float *out, int n, int parts) {
  __shared__ int len;
  if (threadIdx.x == 0)
    len = (n + parts - 1) / parts;
  __syncthreads();
  float acc = 0.0f;
  for (int i = threadIdx.x; i < len; i += blockDim.x)
    acc += x[blockIdx.x * len + i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The shared value is also updated later: not a constant, left as a load.
__global__ void moving_bound(const float *x, float *out, int n) {
  __shared__ int len;
  if (threadIdx.x == 0)
    len = n;
  __syncthreads();
  float acc = 0.0f;
  for (int i = threadIdx.x; i < len; i += blockDim.x)
    acc += x[i];
  __syncthreads();
  if (threadIdx.x == 0)
    len = 0;
  out[threadIdx.x] = acc;
}

void run(const float *x, float *out, int n) {
  segment_sum<<<1024, 256>>>(x, out, n, 1024);
  moving_bound<<<1, 256>>>(x, out, n);
}
