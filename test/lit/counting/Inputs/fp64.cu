// Double precision: daxpy, and a kernel with a sqrt and a division.

__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void dnorm(int n, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
    y[i] = sqrt(v) / (v + 1.0);
  }
}

void run_fp64(int n, double a, const double *x, double *y, double *z) {
  daxpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
  dnorm<<<(n + 255) / 256, 256>>>(n, x, z);
}
