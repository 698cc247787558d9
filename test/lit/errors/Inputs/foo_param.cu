// A kernel parameter named FOO: compiling with -DFOO (FOO defined to 1) turns
// the declaration into 'float 1', a compile error.
__global__ void scale_foo(float *x, int n, float FOO) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * FOO;
}

void run(float *x, int n) { scale_foo<<<(n + 255) / 256, 256>>>(x, n, 2.0f); }
