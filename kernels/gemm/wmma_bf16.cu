// wmma_bf16.cu: mixed-precision GEMM on tensor cores, C = alpha * A * B +
// beta * C with A (M x K) and B (K x N) in bf16, C (M x N) in fp32, all
// row-major. A block of (BM / WM) * (BN / WN) warps computes a BM x BN tile
// of C; each warp owns a WM x WN warp tile held as (WM / 16) x (WN / 16)
// 16x16 fp32 accumulator fragments. Per step of BK along K the block copies a
// BM x BK tile of A and a BK x BN tile of B into shared memory with 16-byte
// (8 x bf16) loads, then each warp loads 16x16 bf16 fragments from shared
// memory and issues one 16x16x16 mma_sync per pair. Shared rows are padded by
// 8 elements so the fragment loads of consecutive rows fall in different banks.
//
// The launcher needs M and N to be multiples of 16 (whole fragments are
// stored) and K a multiple of 8 (whole 16-byte loads); none of them needs to
// be a multiple of the block tile: partial tiles are zero-filled and fragments
// outside C are skipped.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    gemm_wmma_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                   const __nv_bfloat16 *B, float beta, float *C) {
  constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  constexpr int kPad = 8;
  constexpr int kFragM = WM / 16, kFragN = WN / 16;
  static_assert((BM * BK / 8) % kThreads == 0 && (BK * BN / 8) % kThreads == 0,
                "the tiles divide into 16-byte loads per thread");
  __shared__ __align__(32) __nv_bfloat16 As[BM][BK + kPad];
  __shared__ __align__(32) __nv_bfloat16 Bs[BK][BN + kPad];

  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int rowBase = blockIdx.y * BM;
  const int colBase = blockIdx.x * BN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kFragM][kFragN];
#pragma unroll
  for (int i = 0; i < kFragM; ++i)
#pragma unroll
    for (int j = 0; j < kFragN; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int p = 0; p < BM * BK / 8 / kThreads; ++p) {
      int v = p * kThreads + tid; // 8-element vector index in the A tile
      int r = v / (BK / 8), c = (v % (BK / 8)) * 8;
      uint4 x = make_uint4(0, 0, 0, 0);
      if (rowBase + r < M && k0 + c < K)
        x = *reinterpret_cast<const uint4 *>(&A[(rowBase + r) * K + k0 + c]);
      *reinterpret_cast<uint4 *>(&As[r][c]) = x;
    }
#pragma unroll
    for (int p = 0; p < BK * BN / 8 / kThreads; ++p) {
      int v = p * kThreads + tid; // 8-element vector index in the B tile
      int r = v / (BN / 8), c = (v % (BN / 8)) * 8;
      uint4 x = make_uint4(0, 0, 0, 0);
      if (k0 + r < K && colBase + c < N)
        x = *reinterpret_cast<const uint4 *>(&B[(k0 + r) * N + colBase + c]);
      *reinterpret_cast<uint4 *>(&Bs[r][c]) = x;
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[kFragM];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[kFragN];
#pragma unroll
      for (int i = 0; i < kFragM; ++i)
        wmma::load_matrix_sync(a[i], &As[warpRow * WM + i * 16][kk], BK + kPad);
#pragma unroll
      for (int j = 0; j < kFragN; ++j)
        wmma::load_matrix_sync(b[j], &Bs[kk][warpCol * WN + j * 16], BN + kPad);
#pragma unroll
      for (int i = 0; i < kFragM; ++i)
#pragma unroll
        for (int j = 0; j < kFragN; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < kFragM; ++i)
#pragma unroll
    for (int j = 0; j < kFragN; ++j) {
      int row = rowBase + warpRow * WM + i * 16;
      int col = colBase + warpCol * WN + j * 16;
      if (row < M && col < N) {
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
        wmma::load_matrix_sync(c, &C[row * N + col], N, wmma::mem_row_major);
#pragma unroll
        for (int e = 0; e < c.num_elements; ++e)
          c.x[e] = alpha * acc[i][j].x[e] + beta * c.x[e];
        wmma::store_matrix_sync(&C[row * N + col], c, N, wmma::mem_row_major);
      }
    }
}

// Returns false (launching nothing) unless M and N are multiples of 16 and K
// is a multiple of 8.
bool launch_gemm_wmma_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                           const __nv_bfloat16 *B, float beta, float *C) {
  constexpr int BM = 128, BN = 128, BK = 32, WM = 64, WN = 32;
  if (M % 16 != 0 || N % 16 != 0 || K % 8 != 0)
    return false;
  dim3 block((BM / WM) * (BN / WN) * 32);
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  gemm_wmma_bf16<BM, BN, BK, WM, WN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  return true;
}
