// A naive GEMM as a template on the element and accumulator types, with
// size_t sizes and indices, instantiated for float and __half: the way
// library-style code writes it (issue 22: the footprint of this shape once
// reached the 30 s per-kernel limit at 4096^3).
#include <cstddef>
#include <cuda_fp16.h>

template <typename T, typename Acc>
__global__ void gemm_naive(size_t M, size_t N, size_t K, Acc alpha,
                           const T *A, const T *B, Acc beta, T *C) {
  const size_t x = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    Acc tmp = 0;
    for (size_t i = 0; i < K; ++i)
      tmp += Acc(A[x * K + i]) * Acc(B[i * N + y]);
    C[x * N + y] = T(alpha * tmp + beta * Acc(C[x * N + y]));
  }
}

inline unsigned ceil_div(size_t a, unsigned b) { return (a + b - 1) / b; }

template <typename T>
void gemm(size_t M, size_t N, size_t K, const T *A, const T *B, T *C) {
  dim3 grid(ceil_div(M, 32), ceil_div(N, 32));
  dim3 block(32, 32);
  gemm_naive<T, float><<<grid, block>>>(M, N, K, 1.0f, A, B, 0.0f, C);
}

template void gemm<float>(size_t, size_t, size_t, const float *, const float *,
                          float *);
template void gemm<__half>(size_t, size_t, size_t, const __half *,
                           const __half *, __half *);
