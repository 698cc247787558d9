// Several kernels whose findings land on one place: a template
// instantiated twice, a device function two kernels call, and a thread
// that writes a run of consecutive floats.
#include "place_common.cuh"

__global__ void row_sums(float *out, const float *m, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    out[i] = row_sum(m + i * n, n);
}

__global__ void row_means(float *out, const float *m, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    out[i] = row_sum(m + i * n, n) / n;
}

// Each thread scales its own run of 8 consecutive floats.
__global__ void scale_runs(float *c, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 8; ++j)
    c[i * 8 + j] = a[i * 8 + j] * 2.0f;
}

void run(float *out, float *m, int rows, int n) {
  row_sums<<<(rows + 255) / 256, 256>>>(out, m, rows, n);
  row_means<<<(rows + 255) / 256, 256>>>(out, m, rows, n);
  tiled_copy<32><<<rows / 1024, 32>>>(out, m);
  tiled_copy<4><<<rows / 128, 32>>>(out, m);
  scale_runs<<<rows / 256, 256>>>(out, m, n);
}
