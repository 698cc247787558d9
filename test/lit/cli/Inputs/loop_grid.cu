__global__ void fill(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 1.0f;
}
void launch_fill(int n, float *x) {
  int blocks = 1;
  while (blocks * 256 < n)
    blocks *= 2;
  fill<<<blocks, 256>>>(n, x);
}
