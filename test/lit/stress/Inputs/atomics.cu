#include <cuda_fp16.h>

// Atomics: float/int/double atomicAdd, other integer atomics, a shared-memory
// histogram, and an atomicCAS retry loop (trip count decided by other threads).
// n = 1000, every kernel <<<4, 256>>>.
// cuda-roofline: param n=1000

// One float atomicAdd per active thread into a single cell.
__global__ void atomic_sum_f32(const float *x, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, x[i]);
}

// Integer histogram: the bin comes from data; 1 int atomic per active thread.
__global__ void atomic_hist_i32(const int *key, int *hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[key[i] & 255], 1);
}

// Double atomicAdd (sm_60+): 8 bytes each; the product is 1 fp64 FLOP.
__global__ void atomic_sum_f64(const double *x, double *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, x[i] * 0.5);
}

// Four different integer atomics per active thread.
__global__ void atomic_misc(const int *x, int *mx, int *mn, unsigned *ctr, int *last, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    atomicMax(mx, v);
    atomicMin(mn, v);
    atomicInc(ctr, 1000000u);
    atomicExch(last, v);
  }
}

// Block-private histogram in shared memory, merged with global atomics.
__global__ void shared_hist(const int *key, int *hist, int n) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = 0;
  __syncthreads();
  if (i < n)
    atomicAdd(&s[key[i] & 255], 1);
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], s[threadIdx.x]);
}

// Float max through an atomicCAS loop: how many times a thread retries depends
// on the other threads, so the atomics (and loads) it issues are not countable.
__device__ float atomic_max_f32(float *addr, float v) {
  int *p = (int *)addr;
  int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_int(fmaxf(v, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void cas_max(const float *x, float *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomic_max_f32(m, x[i]);
}

// The returned old value is used: still 1 atomic (4 B) + 1 store per thread.
__global__ void atomic_fetch(const float *x, float *acc, float *old, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    old[i] = atomicAdd(&acc[i % 32], x[i]);
}

// half2 atomicAdd: the CUDA header implements it with inline PTX
// (atom.add.noftz.f16x2), which the tool does not read: unknown, located.
__global__ void atomic_half2(const __half2 *x, __half2 *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(acc, x[i]);
}

void run(const float *x, float *s, const int *k, int *h, const double *xd, double *sd,
         int *a, int *b, unsigned *c, int *d, const __half2 *xh, __half2 *sh, int n) {
  atomic_sum_f32<<<(n + 255) / 256, 256>>>(x, s, n);
  atomic_hist_i32<<<(n + 255) / 256, 256>>>(k, h, n);
  atomic_sum_f64<<<(n + 255) / 256, 256>>>(xd, sd, n);
  atomic_misc<<<(n + 255) / 256, 256>>>(k, a, b, c, d, n);
  shared_hist<<<(n + 255) / 256, 256>>>(k, h, n);
  cas_max<<<(n + 255) / 256, 256>>>(x, s, n);
  atomic_fetch<<<(n + 255) / 256, 256>>>(x, s, s, n);
  atomic_half2<<<(n + 255) / 256, 256>>>(xh, sh, n);
}
