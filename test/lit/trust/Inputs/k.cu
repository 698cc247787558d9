// A kernel whose analysis needs no sizes beyond its launch.
__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

void launch_scale(float *x) { scale<<<4096, 256>>>(x, 2.0f, 1 << 20); }
