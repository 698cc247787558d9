// Kernels sized only by their host code, as a project writes them: a
// macro and an inline helper round the grids up, and nothing gives n, M,
// N or K a value in this file.
#include <cuda_runtime.h>

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

inline int div_up(int n, int d) { return (n + d - 1) / d; }

// y = alpha * x + y, one element per thread.
__global__ void axpy(int n, float alpha, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}

// C = A * B, row-major, A is M x K and B is K x N; one output per thread.
__global__ void matmul(const float *A, const float *B, float *C, int M, int N,
                       int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

// Scales each row of a matrix of n columns by its own factor; launched by
// another file of the project.
__global__ void row_scale(float *out, const float *in, const float *scale,
                          int n) {
  int row = blockIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < n)
    out[row * n + col] = in[row * n + col] * scale[row];
}

// Sums the segment of v that offsets gives each output: a loop bound read
// from memory.
__global__ void segment_sum(const int *offsets, const float *v, float *out,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = offsets[i]; j < offsets[i + 1]; ++j)
      s += v[j];
    out[i] = s;
  }
}

void run_axpy(int n, float alpha, const float *x, float *y) {
  axpy<<<CEIL_DIV(n, 256), 256>>>(n, alpha, x, y);
}

void run_matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid(div_up(N, 16), div_up(M, 16));
  matmul<<<grid, block>>>(A, B, C, M, N, K);
}

void run_segment_sum(const int *offsets, const float *v, float *out, int n) {
  segment_sum<<<div_up(n, 128), 128>>>(offsets, v, out, n);
}
