// train_elementwise.cu: elementwise kernels written the way training code
// writes them (test/lit/cli/lint-agrees.test, tools/bench-speed.py): a
// 16-byte pack of four floats moved as one access, GELU forward and
// backward, a residual add and an in-place bias add, launched by host
// launchers through a ceil_div helper, for each block size of an array
// that main loops over, with the model's sizes set in main.
#include <cmath>
#include <cstring>
#include <cuda_runtime.h>

// sqrt(2/pi) spelled as a call: one sqrt per element (not constant-folded:
// libdevice is not linked into the analysis).
#define GELU_K sqrtf(2.0f / M_PI)
#define GELU_A 0.044715f

template <typename T> __host__ __device__ constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

template <typename T> struct alignas(16) Pack {
  static constexpr int N = 16 / sizeof(T);
  T v[N];
  __device__ T &operator[](int k) { return v[k]; }
  __device__ const T &operator[](int k) const { return v[k]; }
};
using f4 = Pack<float>;

template <typename T> __device__ Pack<T> load_pack(const T *p) {
  int4 bits = *reinterpret_cast<const int4 *>(p);
  Pack<T> out;
  memcpy(&out, &bits, sizeof(bits));
  return out;
}

// Read once: the streaming hint (__ldcs) keeps it out of the caches.
template <typename T> __device__ Pack<T> load_pack_once(const T *p) {
  int4 bits = __ldcs(reinterpret_cast<const int4 *>(p));
  Pack<T> out;
  memcpy(&out, &bits, sizeof(bits));
  return out;
}

template <typename T> __device__ void store_pack(T *p, const Pack<T> &x) {
  int4 bits;
  memcpy(&bits, &x, sizeof(bits));
  *reinterpret_cast<int4 *>(p) = bits;
}

__global__ void gelu_fwd(float *out, const float *in, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * f4::N;
  if (i >= n)
    return;
  f4 x = load_pack_once(in + i), y;
  for (int k = 0; k < f4::N; ++k) {
    float u = GELU_K * (x[k] + GELU_A * x[k] * x[k] * x[k]);
    y[k] = 0.5f * x[k] * (1.0f + tanhf(u));
  }
  store_pack(out + i, y);
}

__global__ void gelu_bwd(float *dx, const float *in, const float *dy, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * f4::N;
  if (i >= n)
    return;
  f4 x = load_pack_once(in + i), g = load_pack_once(dy + i), out;
  for (int k = 0; k < f4::N; ++k) {
    float u = GELU_K * (x[k] + GELU_A * x[k] * x[k] * x[k]);
    float t = tanhf(u);
    float du = GELU_K * (1.0f + 3.0f * GELU_A * x[k] * x[k]);
    float d = 0.5f * (1.0f + t) + 0.5f * x[k] * (1.0f - t * t) * du;
    out[k] = d * g[k];
  }
  store_pack(dx + i, out);
}

__global__ void residual_add(float *out, const float *a, const float *b,
                             int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * f4::N;
  if (i < n) {
    f4 x = load_pack_once(a + i), y = load_pack_once(b + i), s;
    for (int k = 0; k < f4::N; ++k)
      s[k] = x[k] + y[k];
    store_pack(out + i, s);
  }
}

// out is (rows, channels) row-major; the bias is one value per channel.
__global__ void bias_add(float *out, const float *bias, int rows,
                         int channels) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * f4::N;
  if (i < rows * channels) {
    f4 x = load_pack(out + i), b = load_pack(bias + i % channels);
    for (int k = 0; k < f4::N; ++k)
      x[k] += b[k];
    store_pack(out + i, x);
  }
}

void gelu_forward(float *out, const float *in, int n, int block_size) {
  int grid = ceil_div(n, block_size * f4::N);
  gelu_fwd<<<grid, block_size>>>(out, in, n);
}

void gelu_backward(float *dx, const float *in, const float *dy, int n,
                   int block_size) {
  int grid = ceil_div(n, block_size * f4::N);
  gelu_bwd<<<grid, block_size>>>(dx, in, dy, n);
}

void residual_forward(float *out, const float *a, const float *b, int n,
                      int block_size) {
  int grid = ceil_div(n, block_size * f4::N);
  residual_add<<<grid, block_size>>>(out, a, b, n);
}

void bias_forward(float *out, const float *bias, int rows, int channels,
                  int block_size) {
  int grid = ceil_div(rows * channels, block_size * f4::N);
  bias_add<<<grid, block_size>>>(out, bias, rows, channels);
}

int main() {
  const int B = 8, T = 1024, C = 768;
  const int hidden = 4 * C; // The MLP's width.
  float *act, *pre, *grad, *res, *bias;
  cudaMalloc(&act, sizeof(float) * B * T * hidden);
  cudaMalloc(&pre, sizeof(float) * B * T * hidden);
  cudaMalloc(&grad, sizeof(float) * B * T * hidden);
  cudaMalloc(&res, sizeof(float) * B * T * C);
  cudaMalloc(&bias, sizeof(float) * hidden);
  int block_sizes[] = {32, 64, 128, 256, 512, 1024};
  for (int j = 0; j < (int)(sizeof(block_sizes) / sizeof(int)); ++j) {
    int block_size = block_sizes[j];
    bias_forward(pre, bias, B * T, hidden, block_size);
    gelu_forward(act, pre, B * T * hidden, block_size);
    gelu_backward(grad, pre, act, B * T * hidden, block_size);
    residual_forward(res, res, act, B * T * C, block_size);
  }
  cudaDeviceSynchronize();
  return 0;
}
