// Guard on a signed remainder: odd indices only.

__global__ void odds(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 2 == 1)
    x[i] += 1.0f;
}

void run_odds(int n, float *x) {
  odds<<<(n + 255) / 256, 256>>>(n, x);
}
