// One block per row, block-stride loop over the row's N columns.

__global__ void row_scale(int N, const float *in, const float *scale, float *out) {
  float s = scale[blockIdx.x];
  const float *r = in + (size_t)blockIdx.x * N;
  for (int j = threadIdx.x; j < N; j += blockDim.x)
    out[(size_t)blockIdx.x * N + j] = r[j] * s;
}

void run_row_scale(int M, int N, const float *in, const float *scale, float *out) {
  row_scale<<<M, 128>>>(N, in, scale, out);
}
