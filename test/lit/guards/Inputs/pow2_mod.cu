// Guards on an index modulo a power of two (the compiler turns % 2^k into & (2^k - 1)).

__global__ void warp_leader(const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[t];
  if (threadIdx.x % 32 == 0)
    y[t / 32] = v * 2.0f;
}

__global__ void half_warp(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 32 < 16)
    x[i] += 1.0f;
}

__global__ void evens(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 2 == 0)
    x[i] += 1.0f;
}

__global__ void every_fourth(int n, const float *x, float *y) {
  float s = 0.0f;
  for (int j = 0; j < n; ++j)
    if (j % 4 == 0)
      s += x[j];
  y[threadIdx.x] = s;
}

void run_pow2_mod(int n, const float *x, float *y, float *z) {
  warp_leader<<<4, 256>>>(x, y);
  half_warp<<<4, 256>>>(z);
  evens<<<(n + 255) / 256, 256>>>(n, z);
  every_fourth<<<1, 32>>>(n, x, y);
}
