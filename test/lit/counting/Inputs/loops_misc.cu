// Loop shapes: pointer-compare loop, doubling counter, do-while, unsigned != bound.

__global__ void ptr_loop(int n, const float *x, float *y) {
  float s = 0.0f;
  for (const float *p = x; p != x + n; ++p)
    s += *p;
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void doubling(int n, const float *x, float *y) {
  float s = 0.0f;
  for (int k = 1; k < n; k *= 2)
    s += x[k];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void do_while3(int n, const float *x, float *y) {
  float s = 0.0f;
  int k = 0;
  do {
    s += x[k];
    k += 3;
  } while (k < n);
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void unsigned_ne(unsigned n, const float *x, float *y) {
  float s = 0.0f;
  for (unsigned j = 0; j != n; ++j)
    s += x[j];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

void run_loops(int n, const float *x, float *y) {
  ptr_loop<<<1, 32>>>(n, x, y);
  doubling<<<1, 32>>>(n, x, y);
  do_while3<<<1, 32>>>(n, x, y);
  unsigned_ne<<<1, 32>>>(n, x, y);
}
