// 2-D element-wise kernel with a 2-D guard and partial edge blocks.

__global__ void madd2d(int M, int N, const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N)
    C[row * N + col] = A[row * N + col] * 2.0f + B[row * N + col];
}

void run_madd2d(int M, int N, const float *A, const float *B, float *C) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  madd2d<<<grid, block>>>(M, N, A, B, C);
}
