// A kernel with default arguments: the first call site omits 'reps' (default 4)
// and 'alpha', the second passes reps = 7; the loop bound comes from the
// default or the argument.
__global__ void axpy_reps(float *y, const float *x, int n, int reps = 4,
                          float alpha = 0.5f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = y[i];
    float xi = x[i];
    for (int r = 0; r < reps; ++r)
      acc = alpha * acc + xi;
    y[i] = acc;
  }
}

void run(float *y, const float *x, int n) {
  axpy_reps<<<(n + 255) / 256, 256>>>(y, x, n);
  axpy_reps<<<(n + 255) / 256, 256>>>(y, x, n, 7);
}
