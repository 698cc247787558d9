// Launch configurations computed by host code that reassigns its variables.

__global__ void inc1(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] + 1.0f;
}
__global__ void inc2(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] + 2.0f;
}
__global__ void inc3(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] + 3.0f;
}
__global__ void inc4(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] + 4.0f;
}

void run_reassign(int n, float *x) {
  int blocks = 4;
  blocks = (n + 127) / 128;
  inc1<<<blocks, 128>>>(n, x);

  int b2 = (n + 255) / 256;
  b2 *= 2;
  inc2<<<b2, 128>>>(n, x);

  dim3 grid(1, 1, 1), block(64);
  grid.x = (n + 63) / 64;
  inc3<<<grid, block>>>(n, x);

  int capped = n / 256;
  if (capped > 8)
    capped = 8;
  inc4<<<capped, 256>>>(n, x);
}
