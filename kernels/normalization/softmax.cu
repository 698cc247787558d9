// softmax.cu: numerically stable softmax of each row of a row-major M x N
// matrix: y[r][j] = exp(x[r][j] - max_r) / sum_k exp(x[r][k] - max_r).
// One 256-thread block per row. Three block-stride passes over the row
// (max, sum of exponentials, normalized output), each followed by a
// block-wide shared-memory tree reduction where needed. x is read three
// times; the exponential is recomputed in the last pass instead of stored.

#include <math.h>

constexpr int kSoftmaxThreads = 256;

// Block-wide reductions over one value per thread (blockDim.x must be a
// power of two, at most kSoftmaxThreads). Every thread returns the result.
static __device__ __forceinline__ float block_max(float v, float *buf) {
  unsigned tid = threadIdx.x;
  buf[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      buf[tid] = fmaxf(buf[tid], buf[tid + s]);
    }
    __syncthreads();
  }
  float r = buf[0];
  __syncthreads();  // buf is reused by the next reduction
  return r;
}

static __device__ __forceinline__ float block_sum(float v, float *buf) {
  unsigned tid = threadIdx.x;
  buf[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      buf[tid] = buf[tid] + buf[tid + s];
    }
    __syncthreads();
  }
  float r = buf[0];
  __syncthreads();
  return r;
}

__global__ void softmax_rows(const float *x, float *y, int N) {
  __shared__ float buf[kSoftmaxThreads];
  const float *xr = x + (size_t)blockIdx.x * N;
  float *yr = y + (size_t)blockIdx.x * N;

  float m = -INFINITY;
  for (int j = threadIdx.x; j < N; j += blockDim.x) {
    m = fmaxf(m, xr[j]);
  }
  m = block_max(m, buf);

  float s = 0.0f;
  for (int j = threadIdx.x; j < N; j += blockDim.x) {
    s += expf(xr[j] - m);
  }
  s = block_sum(s, buf);

  for (int j = threadIdx.x; j < N; j += blockDim.x) {
    yr[j] = expf(xr[j] - m) / s;
  }
}

void launch_softmax(const float *x, float *y, int M, int N) {
  softmax_rows<<<M, kSoftmaxThreads>>>(x, y, N);
}
