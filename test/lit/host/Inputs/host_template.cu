// A templated host launcher instantiated for float and double: each
// instantiation launches the matching kernel instantiation, with a block size
// that depends on T (512 / sizeof(T): 128 for float, 64 for double).
template <typename T>
__global__ void square_add(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * x[i] + x[i];
}

template <typename T>
void launch(T *x, int n) {
  int threads = 512 / sizeof(T);
  int blocks = (n + threads - 1) / threads;
  square_add<T><<<blocks, threads>>>(x, n);
}

void run(float *xf, double *xd, int n) {
  launch(xf, n);
  launch<double>(xd, n);
}
