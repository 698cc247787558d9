// A kernel template that is never instantiated, whose body is only wrong for
// the types it would be instantiated with (T::no_such_member): the file is
// valid C++, the template is never analyzed, the plain kernel is.
template <typename T>
__global__ void never_used(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = T::no_such_member(x[i]);
}

__global__ void fine(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * y[i];
}

void run(float *y, int n) { fine<<<(n + 127) / 128, 128>>>(y, n); }
