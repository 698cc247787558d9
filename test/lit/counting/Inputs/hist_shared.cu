// 256-bin histogram privatized per block in shared memory (shared atomics),
// then flushed to global memory with one atomicAdd per bin.

#define NBINS 256

// blockDim.x == NBINS: one bin per thread for the clear and the flush.
__global__ void hist_shared(const unsigned char *data, unsigned int *bins, int n) {
  __shared__ unsigned int local[NBINS];
  local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  unsigned int c = local[threadIdx.x];
  atomicAdd(&bins[threadIdx.x], c);
}

// Any blockDim.x: block-strided clear and flush loops over the bins.
__global__ void hist_shared_strided(const unsigned char *data, unsigned int *bins, int n) {
  __shared__ unsigned int local[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

// nbins bins in dynamic shared memory (sized at the launch), grid-stride over the input.
__global__ void hist_dynamic(const int *data, unsigned int *bins, int n, int nbins) {
  extern __shared__ unsigned int dyn[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    dyn[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&dyn[data[i] % nbins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    atomicAdd(&bins[b], dyn[b]);
}

void launch_hist_shared(const unsigned char *data, unsigned int *bins, int n, const int *idata,
                        int nbins) {
  hist_shared<<<(n + NBINS - 1) / NBINS, NBINS>>>(data, bins, n);
  int threads = 96;
  hist_shared_strided<<<(n + threads - 1) / threads, threads>>>(data, bins, n);
  hist_dynamic<<<16, 128, nbins * sizeof(unsigned int)>>>(idata, bins, n, nbins);
}
