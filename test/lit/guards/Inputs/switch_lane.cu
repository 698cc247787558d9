// Divergent branches on the thread index: a switch on threadIdx.x % 4, and an if/else on
// the parity of threadIdx.x (no thread runs more than one case).

__global__ void lane_switch(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  float r;
  switch (threadIdx.x % 4) {
  case 0:
    r = v + 1.0f;
    break;
  case 1:
    r = v * v * v;
    break;
  case 2:
    r = v / 3.0f;
    break;
  default:
    r = sqrtf(v);
    break;
  }
  y[i] = r;
}

__global__ void parity_branch(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  if (threadIdx.x % 2 == 0)
    y[i] = v * v;
  else
    y[i] = sqrtf(v) / (v + 1.0f);
}

void launch_lane(const float *x, float *y, int n) {
  lane_switch<<<(n + 127) / 128, 128>>>(x, y, n);
  parity_branch<<<(n + 127) / 128, 128>>>(x, y, n);
}
