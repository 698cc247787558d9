// Three ways a kernel waits for global memory: a gather, whose second load
// needs the first one's value; a tiled sum, whose guarded tile loads are
// waited for at a barrier; and the same sum with the next tile prefetched
// into a register while the current one is summed.
#include <cuda_runtime.h>

constexpr int kTile = 256;

__global__ void gather(const int *__restrict__ idx, const float *__restrict__ x,
                       float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[idx[i]];
}

__device__ inline float load_or_zero(const float *p, int i, int n) {
  return i < n ? p[i] : 0.0f;
}

__global__ void tile_sums(const float *__restrict__ in, float *__restrict__ out,
                          int n) {
  __shared__ float tile[kTile];
  float acc = 0.0f;
  for (int base = 0; base < n; base += kTile) {
    tile[threadIdx.x] = load_or_zero(in, base + threadIdx.x, n);
    __syncthreads();
    acc += tile[(threadIdx.x + 1) % kTile];
    __syncthreads();
  }
  out[blockIdx.x * kTile + threadIdx.x] = acc;
}

__global__ void tile_sums_prefetch(const float *__restrict__ in,
                                   float *__restrict__ out, int n) {
  __shared__ float tile[kTile];
  float acc = 0.0f;
  float next = load_or_zero(in, threadIdx.x, n);
  for (int base = 0; base < n; base += kTile) {
    tile[threadIdx.x] = next;
    __syncthreads();
    next = load_or_zero(in, base + kTile + threadIdx.x, n);
    acc += tile[(threadIdx.x + 1) % kTile];
    __syncthreads();
  }
  out[blockIdx.x * kTile + threadIdx.x] = acc;
}

void run(const int *idx, const float *x, float *out, int n) {
  gather<<<(n + 255) / 256, 256>>>(idx, x, out, n);
  tile_sums<<<64, kTile>>>(x, out, n);
  tile_sums_prefetch<<<64, kTile>>>(x, out, n);
}
