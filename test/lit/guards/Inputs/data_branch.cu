// Branch on a loaded value: only positive elements are scaled and stored.

__global__ void scale_positive(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    if (v > 0.0f)
      y[i] = v * 3.0f;
  }
}

void run_scale_positive(int n, const float *x, float *y) {
  scale_positive<<<(n + 255) / 256, 256>>>(n, x, y);
}
