// Written for nvcc: cache-hint loads and stores. The __nv_bfloat16 and
// __half overloads come from cuda_bf16.hpp/cuda_fp16.hpp (inline PTX, in
// clang too); __ldca and __stcs on float4 come from nvcc's
// sm_32_intrinsics.h, which clang does not include and its own
// __clang_cuda_intrinsics.h does not replace.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>

// Streamed once: evict-first loads and stores.
__global__ void scale_bf16(const __nv_bfloat16 *x, __nv_bfloat16 *y, float a,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcs(y + i, __float2bfloat16(a * __bfloat162float(__ldcs(x + i))));
}

// Pairs of bf16: a cache-global load and a write-through store of 4 bytes.
__global__ void copy_bf162(const __nv_bfloat162 *x, __nv_bfloat162 *y,
                           int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    __stwt(y + i, __ldcg(x + i));
}

// A half read last-use and written back.
__global__ void negate_half(const __half *x, __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stwb(y + i, __hneg(__ldlu(x + i)));
}

// float4: one 16-byte load and one 16-byte store per thread.
__global__ void relu4(const float4 *x, float4 *y, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = __ldca(x + i);
    v.x = fmaxf(v.x, 0.0f);
    v.y = fmaxf(v.y, 0.0f);
    v.z = fmaxf(v.z, 0.0f);
    v.w = fmaxf(v.w, 0.0f);
    __stcs(y + i, v);
  }
}

// A column of a row-major matrix, read streaming: strided across the warp.
__global__ void column_cs(const float *m, float *col, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    col[r] = __ldcs(m + (size_t)r * cols);
}

int main() {
  const int n = 1 << 22, rows = 4096, cols = 4096;
  __nv_bfloat16 *xb, *yb;
  __half *xh, *yh;
  float *m, *col;
  cudaMalloc(&xb, n * sizeof(__nv_bfloat16));
  cudaMalloc(&yb, n * sizeof(__nv_bfloat16));
  cudaMalloc(&xh, n * sizeof(__half));
  cudaMalloc(&yh, n * sizeof(__half));
  cudaMalloc(&m, (size_t)rows * cols * sizeof(float));
  cudaMalloc(&col, rows * sizeof(float));
  scale_bf16<<<n / 256, 256>>>(xb, yb, 0.5f, n);
  copy_bf162<<<n / 2 / 256, 256>>>((const __nv_bfloat162 *)xb,
                                   (__nv_bfloat162 *)yb, n / 2);
  negate_half<<<n / 256, 256>>>(xh, yh, n);
  relu4<<<n / 4 / 256, 256>>>((const float4 *)m, (float4 *)m, n / 4);
  column_cs<<<rows / 128, 128>>>(m, col, rows, cols);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
