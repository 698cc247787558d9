// layernorm.cu: layer normalization of each row of a row-major M x N matrix:
//   mean = sum_j x[j] / N,  var = sum_j (x[j] - mean)^2 / N,
//   y[j] = (x[j] - mean) * rsqrt(var + eps) * gamma[j] + beta[j].
// One 256-thread block per row; two-pass statistics (mean, then variance
// around the mean), then the affine output pass. x is read three times.

constexpr int kLayerNormThreads = 256;

// Block-wide sum of one value per thread (blockDim.x must be a power of two,
// at most kLayerNormThreads). Every thread returns the result.
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
  __syncthreads();  // buf is reused by the next reduction
  return r;
}

__global__ void layernorm_rows(const float *x, const float *gamma, const float *beta, float *y,
                               int N, float eps) {
  __shared__ float buf[kLayerNormThreads];
  const float *xr = x + (size_t)blockIdx.x * N;
  float *yr = y + (size_t)blockIdx.x * N;

  float s = 0.0f;
  for (int j = threadIdx.x; j < N; j += blockDim.x) {
    s += xr[j];
  }
  float mean = block_sum(s, buf) / (float)N;

  float s2 = 0.0f;
  for (int j = threadIdx.x; j < N; j += blockDim.x) {
    float d = xr[j] - mean;
    s2 += d * d;
  }
  float var = block_sum(s2, buf) / (float)N;
  float rstd = rsqrtf(var + eps);

  for (int j = threadIdx.x; j < N; j += blockDim.x) {
    yr[j] = (xr[j] - mean) * rstd * gamma[j] + beta[j];
  }
}

void launch_layernorm(const float *x, const float *gamma, const float *beta, float *y, int M, int N,
                      float eps) {
  layernorm_rows<<<M, kLayerNormThreads>>>(x, gamma, beta, y, N, eps);
}
