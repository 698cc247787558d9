// Column sums of a rows x 32 tile per block: threadIdx.y walks the rows with
// a doubling step, the guard `ty % step == 0` written on the row index.
__global__ void column_sums(const float *m, float *sums, int rows) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * 32 + tx;
  tile[ty][tx] = m[ty * 1024 + col];
  __syncthreads();
  for (int step = 2; step <= blockDim.y; step *= 2) {
    if (ty % step == 0)
      tile[ty][tx] += tile[ty + step / 2][tx];
    __syncthreads();
  }
  if (ty == 0)
    sums[col] = tile[0][tx];
}
void launch(const float *m, float *s) {
  column_sums<<<32, dim3(32, 32)>>>(m, s, 32);
}
