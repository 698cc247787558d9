// smem_tiled.cu: single-precision GEMM, C = alpha * A * B + beta * C, row-major
// (A is M x K, B is K x N, C is M x N), with TILE x TILE tiles of A and B
// staged in shared memory. A TILE x TILE block walks K in steps of TILE: each
// thread loads one element of the A tile and one of the B tile, then reads
// TILE of each back from shared memory. Every element fetched from global
// memory is used by TILE threads, so requested global bytes per FLOP fall by
// TILE. A and B advance along K by pointer increments. Tiles that overhang M,
// N or K are zero-filled so that any size is correct.

template <int TILE>
__global__ void sgemm_smem_tiled(int M, int N, int K, float alpha, const float *A,
                                 const float *B, float beta, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  A += row * K;  // start of this thread's row of A
  B += col;      // this thread's column of B

  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[ty * N] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
    A += TILE;
    B += TILE * N;
  }
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

void launch_sgemm_smem_tiled(int M, int N, int K, float alpha, const float *A, const float *B,
                             float beta, float *C) {
  constexpr int TILE = 32;
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  sgemm_smem_tiled<TILE><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
