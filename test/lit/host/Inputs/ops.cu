// Elementwise and broadcast ops of a CMake project: the kernels and the
// host launchers that ops.h declares for the C++ side, each taking the
// stream to run on.
#include "launch_utils.cuh"

namespace ops {
namespace {
constexpr int kThreads = 256;
} // namespace

__global__ void add_bias_kernel(float *__restrict__ y,
                                const float *__restrict__ bias, int rows,
                                int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    y[r * cols + c] += bias[c];
}

__global__ void axpy_kernel(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void scale_kernel(float *x, float alpha, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] *= alpha;
}

void add_bias(float *y, const float *bias, int rows, int cols,
              cudaStream_t stream) {
  dim3 block(32, 8);
  dim3 grid = util::grid_2d(rows, cols, block);
  add_bias_kernel<<<grid, block, 0, stream>>>(y, bias, rows, cols);
}

void axpy(int n, float a, const float *x, float *y, cudaStream_t stream) {
  dim3 blockDim(kThreads);
  dim3 gridDim(util::ceil_div(n, kThreads));
  axpy_kernel<<<gridDim, blockDim, 0, stream>>>(n, a, x, y);
}

void scale(float *x, float alpha, int n, cudaStream_t stream) {
  const int blocks = util::grid_for(n, kThreads);
  scale_kernel<<<blocks, kThreads, 0, stream>>>(x, alpha, n);
}

} // namespace ops
