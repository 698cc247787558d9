// A shared-memory tiled GEMM whose global loads, shared reads and FMAs all
// happen in __device__ helpers (inlined at -O3), with the tile width taken
// from a template parameter and the operand pointers advanced inside the
// tile loop.

template <int T>
__device__ float loadOrZero(const float *p, int r, int c, int ld, int rows, int cols) {
  return (r < rows && c < cols) ? p[r * ld + c] : 0.0f;
}

template <int T>
__device__ float dotTile(const float (&as)[T][T], const float (&bs)[T][T], int ty, int tx) {
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < T; ++k)
    s += as[ty][k] * bs[k][tx];
  return s;
}

template <int T>
__global__ void tiles_via_helpers(int M, int N, int K, const float *A, const float *B, float *C) {
  __shared__ float as[T][T], bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += T) {
    as[ty][tx] = loadOrZero<T>(A, row, tx, K, M, K - k0);
    bs[ty][tx] = loadOrZero<T>(B, ty, col, N, K - k0, N);
    __syncthreads();
    acc += dotTile<T>(as, bs, ty, tx);
    __syncthreads();
    A += T;
    B += T * N;
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void launch(int M, int N, int K, const float *A, const float *B, float *C) {
  constexpr int T = 16;
  dim3 block(T, T), grid((N + T - 1) / T, (M + T - 1) / T);
  tiles_via_helpers<T><<<grid, block>>>(M, N, K, A, B, C);
}
