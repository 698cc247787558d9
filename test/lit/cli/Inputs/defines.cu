// Work per thread depends on a macro that comes from the compile command.
#ifndef ITEMS
#error "ITEMS must be defined"
#endif
__global__ void items(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int k = 0; k < ITEMS; ++k)
    acc = acc * x[i] + 1.0f;
  y[i] = acc;
}
void launch_items(int n, const float *x, float *y) {
  items<<<(n + 127) / 128, 128>>>(n, x, y);
}
