// dim3 launch shape whose members are reassigned inside an if / else
// (documented: locals followed through `grid.x = ...;` and through ifs whose condition
// evaluates).

__global__ void sq_plus3_m(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i] + 3.0f;
}

void launch_sq_plus3_m(const float *x, float *y, int n) {
  dim3 block(256);
  dim3 grid(1, 1);
  if (n > 1000) {
    grid.x = (n + 255) / 256;
  } else {
    block.x = 64;
    grid.x = (n + block.x - 1) / block.x;
  }
  sq_plus3_m<<<grid, block>>>(x, y, n);
}
