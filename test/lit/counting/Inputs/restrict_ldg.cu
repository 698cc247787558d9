// 3-point smoothing with __restrict__ pointers and read-only __ldg loads.

__global__ void smooth3(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i < n - 1)
    y[i] = 0.25f * __ldg(&x[i - 1]) + 0.5f * __ldg(&x[i]) + 0.25f * __ldg(x + i + 1);
}

void launch_smooth3(int n, const float *x, float *y) {
  smooth3<<<(n - 2 + 255) / 256, 256>>>(n, x, y);
}
