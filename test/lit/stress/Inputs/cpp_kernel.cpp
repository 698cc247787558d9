// A .cpp that holds CUDA code (some projects compile such files with `nvcc -x cu`):
// the tool compiles every input as CUDA, so the kernel is analyzed.
// cuda-roofline: param n=1000
__global__ void cpp_scale(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 3.0f * x[i];
}

void run(const float *x, float *y, int n) { cpp_scale<<<(n + 255) / 256, 256>>>(x, y, n); }
