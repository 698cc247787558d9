// The launcher's parameter is a short; --param m=... gives its value
// (param-launcher-range.test).
__global__ void fill(long long n, float *out) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

void launch_fill(short m, float *out) {
  fill<<<(m + 255) / 256, 256>>>(m, out);
}
