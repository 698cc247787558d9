// Classic 16x16 shared-memory tiled SGEMM, C = A B with A (M x K), B (K x N),
// bounds checks on every edge (K need not be a multiple of 16).

#define TILE 16

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    if (row < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    else
      As[ty][tx] = 0.0f;
    if (k0 + ty < K && col < N)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    else
      Bs[ty][tx] = 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Variant: tiles are not zero-padded; the unrolled inner loop checks k0 + k < K instead.
__global__ void sgemm_kguard(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    if (row < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    if (k0 + ty < K && col < N)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      if (k0 + k < K)
        acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void launch_sgemm(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  sgemm_tiled<<<grid, block>>>(A, B, C, M, N, K);
  sgemm_kguard<<<grid, block>>>(A, B, C, M, N, K);
}
