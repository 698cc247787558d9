// cuda-roofline: launch kb=2/64
// Three kernels that nothing launches: launch-precedence.test gives them
// launches from the flags, the annotation above and a config file.
__global__ void ka(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 2.0f;
}

__global__ void kb(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 2.0f;
}

__global__ void kc(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 2.0f;
}
