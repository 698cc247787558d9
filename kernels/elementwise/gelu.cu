// gelu.cu: GELU activation, tanh approximation:
//   y = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
// Per element: 8 fp32 add/mul (two of them may contract into one fma, which
// counts 2) and one tanh.

__global__ void gelu_tanh(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}

void launch_gelu(const float *x, float *y, int n) {
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  gelu_tanh<<<blocks, threads>>>(x, y, n);
}
