// One thread of the whole grid does serial work: a guard on two indices.

__global__ void first_thread_serial(int n, float *x) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (int i = 0; i < n; ++i)
      x[i] = x[i] * x[i];
}

void run_first_thread_serial(int n, float *x) {
  first_thread_serial<<<4, 32>>>(n, x);
}
