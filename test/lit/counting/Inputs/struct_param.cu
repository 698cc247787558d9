// A struct passed by value as a kernel parameter (lives in parameter space).

struct Coeffs {
  float a, b;
};

__global__ void struct_affine(int n, Coeffs c, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = c.a * x[i] + c.b;
}

void run_struct_affine(int n, Coeffs c, const float *x, float *y) {
  struct_affine<<<(n + 255) / 256, 256>>>(n, c, x, y);
}
