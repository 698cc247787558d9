// Two fp16 tensor-core GEMMs that differ only in the accumulator: one warp
// per 16x16 tile of C, fp16 inputs, C and the accumulator fragment in fp16
// (wmma_gemm_f16acc) or fp32 (wmma_gemm_f32acc).
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

namespace {
constexpr int kTile = 16;
constexpr int kWarpsPerBlock = 4;

int ceil_div(int a, int b) { return (a + b - 1) / b; }
} // namespace

template <typename Acc>
__device__ void wmma_tile(const half *a, const half *b, Acc *c, int M, int N,
                          int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tiles_n = N / kTile;
  int tm = warp / tiles_n, tn = warp % tiles_n;
  if (tm * kTile >= M)
    return;
  wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, Acc> acc;
  wmma::fill_fragment(acc, Acc(0.0f));
  for (int k = 0; k < K; k += kTile) {
    wmma::load_matrix_sync(fa, a + tm * kTile * K + k, K);
    wmma::load_matrix_sync(fb, b + k * N + tn * kTile, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + tm * kTile * N + tn * kTile, acc, N,
                          wmma::mem_row_major);
}

__global__ void wmma_gemm_f16acc(const half *a, const half *b, half *c, int M,
                                 int N, int K) {
  wmma_tile(a, b, c, M, N, K);
}

__global__ void wmma_gemm_f32acc(const half *a, const half *b, float *c,
                                 int M, int N, int K) {
  wmma_tile(a, b, c, M, N, K);
}

void gemm(const half *a, const half *b, half *c16, float *c32, int M, int N,
          int K) {
  int tiles = (M / kTile) * (N / kTile);
  int threads = kWarpsPerBlock * 32;
  int blocks = ceil_div(tiles, kWarpsPerBlock);
  wmma_gemm_f16acc<<<blocks, threads>>>(a, b, c16, M, N, K);
  wmma_gemm_f32acc<<<blocks, threads>>>(a, b, c32, M, N, K);
}
