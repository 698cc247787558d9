// A kernel whose only global access is an atomic.

__global__ void count_mod10(int n, int *cnt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&cnt[i % 10], 1);
}

void run_count_mod10(int n, int *cnt) {
  count_mod10<<<(n + 255) / 256, 256>>>(n, cnt);
}
