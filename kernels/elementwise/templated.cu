// templated.cu: y[i] = alpha * x[i], written as a kernel template over the
// element type and the number of consecutive elements each thread handles.
// Thread t of the grid handles elements ITEMS*t .. ITEMS*t + ITEMS-1, each one
// bounds-checked. The launcher instantiates scale_items<float, 4>.

template <typename T, int ITEMS>
__global__ void scale_items(const T *x, T *y, T alpha, int n) {
  int first = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    int i = first + k;
    if (i < n) {
      y[i] = alpha * x[i];
    }
  }
}

void launch_scale_items(const float *x, float *y, float alpha, int n) {
  const int threads = 256;
  const int items = 4;
  const int per_block = threads * items;
  const int blocks = (n + per_block - 1) / per_block;
  scale_items<float, 4><<<blocks, threads>>>(x, y, alpha, n);
}
