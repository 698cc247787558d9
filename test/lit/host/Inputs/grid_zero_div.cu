// A grid size computed with a truncating division: for n < 256 it is 0 blocks
// (a classic host bug; the launch fails with cudaErrorInvalidConfiguration and
// nothing executes).
__global__ void inc(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] + 1.0f;
}

void run(float *x, int n) {
  inc<<<n / 256, 256>>>(x, n);
}
