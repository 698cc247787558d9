// A strided store whose expression holds "%", ",", ":" and "|" (formats.test
// copies this file to a name that holds them too).
__device__ int at(int Row, int Ld) { return Row * Ld; }

__global__ void scatter_mod(int n, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[at(i, 1024 % 2000) + (sizeof(float) > 2 ? 0 : 1) + (8 | 1)] = in[i];
}

void launch_scatter_mod(int n, const float *in, float *out) {
  scatter_mod<<<(n + 255) / 256, 256>>>(n, in, out);
}
