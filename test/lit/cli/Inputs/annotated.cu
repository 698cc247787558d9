// Sizes for editor runs come from annotations, no flags needed.
// cuda-roofline: param n=4096
// cuda-roofline: gpu a100-80gb-sxm
__global__ void axpb(int n, float a, float b, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = a * x[i] + b;
}
void launch_axpb(int n, float a, float b, float *x) {
  axpb<<<(n + 255) / 256, 256>>>(n, a, b, x);
}
