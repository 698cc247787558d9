// Read-only loads through __ldg (scalar and float4).

__global__ void ldg_scale(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __ldg(&x[i]) * 2.0f;
}

__global__ void ldg_scale4(int n, const float4 *x, float4 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = __ldg(&x[i]);
    v.x *= 2.0f;
    v.y *= 2.0f;
    v.z *= 2.0f;
    v.w *= 2.0f;
    y[i] = v;
  }
}

void run_ldg(int n, const float *x, float *y, const float4 *x4, float4 *y4) {
  ldg_scale<<<(n + 255) / 256, 256>>>(n, x, y);
  ldg_scale4<<<(n + 255) / 256, 256>>>(n, x4, y4);
}
