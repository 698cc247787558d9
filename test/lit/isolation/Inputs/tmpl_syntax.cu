// A kernel template that is never instantiated, with a real syntax error
// (missing ';') in its body: clang rejects it even without instantiation.
template <typename T>
__global__ void broken(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n) x[i] = x[i] * 2;
}

__global__ void fine(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1.0f;
}
