#pragma once
// A header template the runner instantiates for float and double; its
// double instantiation hits an error (no overload takes a double *),
// which must cost only axpy_kernel<double>.
__device__ inline float load_twice(const float *p) { return p[0] + p[0]; }

template <typename T>
__global__ void axpy_kernel(T *y, const T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * load_twice(x + i) + y[i];
}
