// Written for nvcc -Xcompiler -fopenmp: the host fills the inputs with an
// OpenMP loop and times the kernel with omp_get_wtime. <omp.h> is the host
// compiler's (gcc's libgomp); clang's CUDA front-end does not find it.
#include <omp.h>
#include <cstdio>
#include <cstdlib>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void dot_partial(int n, const float *x, const float *y,
                            float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, x[i] * y[i]);
}

int main() {
  const int n = 1 << 24;
  float *x = (float *)malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  float *dx, *dy, *dot;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&dot, sizeof(float));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);
  double t0 = omp_get_wtime();
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
  dot_partial<<<(n + 255) / 256, 256>>>(n, dx, dy, dot);
  cudaDeviceSynchronize();
  printf("%d host threads, %.3f ms\n", omp_get_max_threads(),
         (omp_get_wtime() - t0) * 1e3);
  return 0;
}
