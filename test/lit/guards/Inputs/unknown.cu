// Pointer comparisons that are not a parameter's null test stay unknown.

// Two parameters compared with each other (in-place or not).
__global__ void copy_unless_same(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (x != y && i < n)
    y[i] = x[i];
}

// A pointer loaded from memory, tested for null.
__global__ void gather_optional(float *const *rows, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *r = rows[blockIdx.y];
  if (r != nullptr && i < n)
    y[i] = r[i];
}
