// A header analyzed on its own: include guard, inline device helpers, a kernel
// template it never instantiates, and two kernels launched only by annotation.
// cuda-roofline: param n=4096
// cuda-roofline: launch hdr_scale=16/256
// cuda-roofline: launch hdr_norm2=16/256
#ifndef STRESS_KERNELS_HEADER_CUH
#define STRESS_KERNELS_HEADER_CUH

#include <cuda_runtime.h>

namespace hdr {
__device__ __forceinline__ float sq(float v) { return v * v; }
} // namespace hdr

// y[i] = a * x[i]: 1 fmul, 4 B in, 4 B out.
static __global__ void hdr_scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}

// Squared norm of a float2: 1 fmul + 1 fma = 3 FLOPs; 8 B in, 4 B out.
inline __global__ void hdr_norm2(const float2 *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 p = v[i];
    out[i] = hdr::sq(p.x) + p.y * p.y;
  }
}

// Never instantiated here: listed as an uninstantiated template.
template <typename T, int R>
__global__ void hdr_stencil(const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= R && i < n - R) {
    T s = 0;
    for (int k = -R; k <= R; ++k)
      s += x[i + k];
    y[i] = s;
  }
}

#endif // STRESS_KERNELS_HEADER_CUH
