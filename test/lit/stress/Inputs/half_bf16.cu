// half / bfloat16 intrinsics. n = 1000 elements (pairs for the x2 kernels),
// every kernel <<<4, 256>>>.
// cuda-roofline: param n=1000
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// y = a*x + y on half2: one __hfma2 = 2 lanes x 2 = 4 fp16 FLOPs.
__global__ void h2_axpy(const __half2 *x, __half2 *y, __half2 a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma2(a, x[i], y[i]);
}

// __hadd2, __hmul2, __hsub2: 3 packed ops = 6 fp16 FLOPs.
__global__ void h2_chain(const __half2 *x, const __half2 *z, __half2 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 a = x[i], b = z[i];
    __half2 s = __hadd2(a, b);
    __half2 p = __hmul2(s, b);
    y[i] = __hsub2(p, a);
  }
}

// Scalar half: __hadd (1) + __hmul (1) + __hfma (2) = 4 fp16 FLOPs.
__global__ void h1_ops(const __half *x, const __half *z, __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half s = __hadd(x[i], z[i]);
    __half p = __hmul(s, z[i]);
    y[i] = __hfma(p, s, x[i]);
  }
}

// float -> bf16: 1 fp32 fmul, the conversion is no FLOP; 4 B in, 2 B out.
__global__ void to_bf16(const float *x, __nv_bfloat16 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __float2bfloat16(x[i] * 2.0f);
}

// bf16 arithmetic: __hadd (1) + __hfma2 on a bfloat162 (4) = 5 bf16 FLOPs.
__global__ void bf16_ops(const __nv_bfloat16 *x, const __nv_bfloat162 *p,
                         __nv_bfloat16 *y, __nv_bfloat162 *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = __hadd(x[i], x[i]);
    __nv_bfloat162 v = p[i];
    q[i] = __hfma2(v, v, v);
  }
}

// Mixed precision dot of 8 halves, accumulated in float: 8 fp32 FMAs = 16 FLOPs,
// 16 half loads (32 B), 1 float store.
__global__ void h_dot8(const __half *a, const __half *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
      acc += __half2float(a[i * 8 + k]) * __half2float(b[k]);
    out[i] = acc;
  }
}

// Conversions only: half2 -> float2 -> half2 and bf16 round trip: 0 FLOPs.
__global__ void conversions(const __half2 *x, __half2 *y, __nv_bfloat16 *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 f = __half22float2(x[i]);
    y[i] = __float22half2_rn(f);
    z[i] = __float2bfloat16(__low2float(x[i]));
  }
}

void run(const __half2 *x2, __half2 *y2, const __half2 *z2, __half2 a, const __half *x1,
         const __half *z1, __half *y1, const float *f, __nv_bfloat16 *b, const __nv_bfloat162 *p,
         __nv_bfloat162 *q, float *o, int n) {
  h2_axpy<<<(n + 255) / 256, 256>>>(x2, y2, a, n);
  h2_chain<<<(n + 255) / 256, 256>>>(x2, z2, y2, n);
  h1_ops<<<(n + 255) / 256, 256>>>(x1, z1, y1, n);
  to_bf16<<<(n + 255) / 256, 256>>>(f, b, n);
  bf16_ops<<<(n + 255) / 256, 256>>>(b, p, b, q, n);
  h_dot8<<<(n + 255) / 256, 256>>>(x1, z1, o, n);
  conversions<<<(n + 255) / 256, 256>>>(x2, y2, b, n);
}
