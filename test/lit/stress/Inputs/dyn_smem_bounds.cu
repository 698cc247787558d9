// Dynamic shared memory (extern __shared__) and __launch_bounds__.
// n = 1024, block 256: 4 blocks, every thread in range.
// cuda-roofline: param n=1024

// Reverse within a block through a dynamic tile: 1 global load, 1 shared store,
// 1 shared load, 1 fmul, 1 global store per thread; smem = 256*4 = 1024 B.
__global__ void dyn_reverse(const float *x, float *y, int n) {
  extern __shared__ float tile[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = x[i];
  __syncthreads();
  y[i] = tile[blockDim.x - 1 - t] * 2.0f;
}

// Two arrays carved from one dynamic buffer (floats then ints): per thread
// 2 shared stores (4 B each), 2 shared loads, 1 fadd; smem = 256*8 = 2048 B.
__global__ void dyn_two_arrays(const float *x, const int *k, float *y, int n) {
  extern __shared__ unsigned char raw[];
  float *f = reinterpret_cast<float *>(raw);
  int *c = reinterpret_cast<int *>(raw + blockDim.x * sizeof(float));
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  f[t] = x[i];
  c[t] = k[i];
  __syncthreads();
  y[i] = f[(t + 1) % blockDim.x] + (float)c[t];
}

// __launch_bounds__(256, 2): a 16-step loop of fmas = 32 fp32 FLOPs per thread.
__global__ void __launch_bounds__(256, 2) bounded_poly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i], acc = 0.0f;
    for (int k = 0; k < 16; ++k)
      acc = acc * v + 1.0f;
    y[i] = acc;
  }
}

// Template with launch bounds from its parameter: 3 fp32 FLOPs per element,
// ITEMS = 4 elements per thread, block 128, grid n / 512 = 2.
template <int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS) bounded_items(const float *x, float *y) {
  int base = blockIdx.x * THREADS * ITEMS + threadIdx.x;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j)
    y[base + j * THREADS] = x[base + j * THREADS] * 3.0f + 1.0f + 0.5f;
}

// More dynamic shared memory than a block may have (300 KiB > 227 KiB on H100):
// the launch fails, nothing runs.
__global__ void dyn_too_big(const float *x, float *y, int n) {
  extern __shared__ float big[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  big[threadIdx.x] = x[i];
  __syncthreads();
  y[i] = big[threadIdx.x];
}

// __launch_bounds__(128) but launched with 256 threads per block: CUDA refuses the
// launch (cudaErrorLaunchOutOfResources / "too many resources requested"), nothing runs.
__global__ void __launch_bounds__(128) bounded_128(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * 2.0f;
}

void run(const float *x, const int *k, float *y, int n) {
  dyn_reverse<<<n / 256, 256, 256 * sizeof(float)>>>(x, y, n);
  dyn_two_arrays<<<n / 256, 256, 256 * (sizeof(float) + sizeof(int))>>>(x, k, y, n);
  bounded_poly<<<(n + 255) / 256, 256>>>(x, y, n);
  bounded_items<128, 4><<<n / 512, 128>>>(x, y);
  dyn_too_big<<<n / 256, 256, 300 * 1024>>>(x, y, n);
  bounded_128<<<n / 256, 256>>>(x, y, n);
}
