// naive.cu: out = transpose(in) for a row-major M x N matrix in
// (out is N x M): out[j][i] = in[i][j]. One thread per element; a warp reads
// 32 consecutive columns of one row (coalesced) and writes them down a
// column of out (stride M: one 32-byte sector per lane).

__global__ void transpose_naive(const float *in, float *out, int M, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;  // column of in
  int i = blockIdx.y * blockDim.y + threadIdx.y;  // row of in
  if (i < M && j < N) {
    out[j * M + i] = in[i * N + j];
  }
}

void launch_transpose_naive(const float *in, float *out, int M, int N) {
  dim3 block(32, 8);
  dim3 grid((N + 31) / 32, (M + 7) / 8);
  transpose_naive<<<grid, block>>>(in, out, M, N);
}
