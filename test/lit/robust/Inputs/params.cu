// Parameters of several widths for --param range checks; launched with
// --launch (no host code).
__global__ void widths(unsigned n, short s, float *x) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = s;
}
