// cos_cos.cu: y = cos(cos(x)), the PyTorch expression x.cos().cos(), two ways.
//   unfused: two launches of cos_kernel through a temporary buffer
//            (x -> tmp -> y: the intermediate makes a round trip to memory);
//   fused:   one kernel applying both cosines in registers.
// The math is the same; the fused form moves half the bytes.

__global__ void cos_kernel(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = cosf(x[i]);
  }
}

__global__ void cos_cos_fused(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = cosf(cosf(x[i]));
  }
}

void launch_cos_cos_unfused(const float *x, float *tmp, float *y, int n) {
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  cos_kernel<<<blocks, threads>>>(x, tmp, n);
  cos_kernel<<<blocks, threads>>>(tmp, y, n);
}

void launch_cos_cos_fused(const float *x, float *y, int n) {
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  cos_cos_fused<<<blocks, threads>>>(x, y, n);
}
