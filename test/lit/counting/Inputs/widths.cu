// Access widths: float4 (16 B), __nv_bfloat16 (2 B), double (8 B), and a
// struct field read (4 B of a 12-byte struct).
#include <cuda_bf16.h>

struct Particle { float x, y, z; };

__global__ void scale4(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    v.x *= 2.f; v.y *= 2.f; v.z *= 2.f; v.w *= 2.f;
    reinterpret_cast<float4 *>(y)[i] = v;
  }
}

__global__ void scale_bf16(int n, const __nv_bfloat16 *x, __nv_bfloat16 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __float2bfloat16(__bfloat162float(x[i]) * 2.f);
}

__global__ void scale_f64(int n, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0 * x[i];
}

__global__ void xz(int n, const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = p[i].x * p[i].z;
}

void run(int n, const float *x, float *y, const __nv_bfloat16 *bx,
         __nv_bfloat16 *by, const double *dx, double *dy, const Particle *p) {
  scale4<<<(n / 4 + 255) / 256, 256>>>(n, x, y);
  scale_bf16<<<(n + 255) / 256, 256>>>(n, bx, by);
  scale_f64<<<(n + 255) / 256, 256>>>(n, dx, dy);
  xz<<<(n + 255) / 256, 256>>>(n, p, y);
}
