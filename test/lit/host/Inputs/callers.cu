// The layout of a kernel benchmark as llm.c's dev/cuda files write it:
// each kernel has a launcher that takes the sizes and the block size as
// parameters, a dispatcher picks the launcher by number, and main sets the
// sizes and tries every block size of a list.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

template <class T> __host__ __device__ T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

// One thread per row: the sum of C values.
__global__ void row_sum_kernel1(float *sum, const float *inp, int N, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N) {
    const float *x = inp + idx * C;
    float m = 0.0f;
    for (int i = 0; i < C; i++)
      m += x[i];
    sum[idx] = m;
  }
}

// One thread per element: out = inp * scale.
__global__ void scale_kernel2(float *out, const float *inp, float scale,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = inp[i] * scale;
}

void row_sum1(float *sum, const float *inp, int B, int T, int C,
              const int block_size) {
  const int N = B * T;
  const int grid_size = ceil_div(N, block_size);
  row_sum_kernel1<<<grid_size, block_size>>>(sum, inp, N, C);
}

void scale2(float *out, const float *inp, int B, int T, int C,
            const int block_size) {
  const int n = B * T * C;
  scale_kernel2<<<ceil_div(n, block_size), block_size>>>(out, inp, 0.5f, n);
}

void run_kernel(int kernel_num, float *out, const float *inp, int B, int T,
                int C, int block_size) {
  switch (kernel_num) {
  case 1:
    row_sum1(out, inp, B, T, C, block_size);
    break;
  case 2:
    scale2(out, inp, B, T, C, block_size);
    break;
  default:
    printf("Invalid kernel number\n");
    exit(1);
  }
}

// A smoke test before the benchmark: one small launch of the first
// kernel, and one whose size comes from the command line.
void smoke_test(float *out, const float *inp, int argc, char **argv) {
  row_sum1(out, inp, 1, 128, 64, 128);
  scale2(out, inp, 1, 1, atoi(argv[1]), 32);
}

int main(int argc, char **argv) {
  int B = 8;
  int T = 1024;
  int C = 768;
  float *d_out, *d_inp;
  cudaMalloc(&d_out, B * T * C * sizeof(float));
  cudaMalloc(&d_inp, B * T * C * sizeof(float));
  smoke_test(d_out, d_inp, argc, argv);
  int kernel_num = 1;
  if (argc > 1)
    kernel_num = atoi(argv[1]);
  int block_sizes[] = {64, 256, 1024};
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
    int block_size = block_sizes[j];
    run_kernel(kernel_num, d_out, d_inp, B, T, C, block_size);
  }
  cudaFree(d_out);
  cudaFree(d_inp);
  return 0;
}
