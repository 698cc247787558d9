// Two kernels whose guards scramble the thread index: each is walked thread
// by thread, for minutes at 16 million threads (time-limit.test).
__global__ void scatter(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (i * 7919) % 97 == 3)
    y[i] = 2.0f * x[i];
}

__global__ void gather(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (i * 7919) % 89 == 5)
    y[i] = x[i] + 1.0f;
}

void run(float *y, const float *x, int n) {
  scatter<<<(n + 255) / 256, 256>>>(y, x, n);
  gather<<<(n + 255) / 256, 256>>>(y, x, n);
}
