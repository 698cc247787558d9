// Written for nvcc: host code calls isfinite, isnan and isinf unqualified,
// which nvcc's headers declare in the global namespace for the host (its
// crt/math_functions.h includes <math.h>); clang's declare only __device__
// ones there, so without the prelude the host template does not compile.
#include <cmath>
#include <cstdio>
#include <cstdlib>

template <typename T> static bool allFinite(const T *v, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(v[i]) || isnan(v[i]) || isinf(v[i]))
      return false;
  return true;
}

// Non-finite inputs become 0, the others are scaled.
__global__ void sanitize(const float *in, float *out, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = isfinite(in[i]) ? scale * in[i] : 0.0f;
}

__global__ void square(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

int main() {
  const int n = 1 << 20;
  float *hf = (float *)malloc(n * sizeof(float));
  double *hd = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    hf[i] = i * 0.5f;
    hd[i] = i * 0.25;
  }
  float *df, *dfo;
  double *dd, *ddo;
  cudaMalloc(&df, n * sizeof(float));
  cudaMalloc(&dfo, n * sizeof(float));
  cudaMalloc(&dd, n * sizeof(double));
  cudaMalloc(&ddo, n * sizeof(double));
  cudaMemcpy(df, hf, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, n * sizeof(double), cudaMemcpyHostToDevice);
  sanitize<<<(n + 255) / 256, 256>>>(df, dfo, 2.0f, n);
  square<<<(n + 127) / 128, 128>>>(dd, ddo, n);
  cudaMemcpy(hf, dfo, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, ddo, n * sizeof(double), cudaMemcpyDeviceToHost);
  printf("finite: %d %d\n", allFinite(hf, n), allFinite(hd, n));
  return 0;
}
