// Threads pass a guard that scrambles their index: no closed form, so the
// walker visits threads one by one.
__global__ void scatter(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (i * 7919) % 97 == 3)
    y[i] = x[i] * 2.0f;
}

void launch(const float *x, float *y, int n) {
  scatter<<<(n + 255) / 256, 256>>>(x, y, n);
}
