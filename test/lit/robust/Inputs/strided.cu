// One strided store: a finding to carry the file's name into every format.
// n = 4096: 16 x 256 threads, lanes 32 elements apart.
__global__ void strided(int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * 32] = 1.0f;
}

void launch_strided(int n, float *out) {
  strided<<<(n + 255) / 256, 256>>>(n, out);
}
