// Input of batch.test, nvcc-style database entry (-DITEMS=5); the block
// has ITEMS rows, launched from the host function below.
#ifndef ITEMS
#error "ITEMS must come from the compile database"
#endif
__global__ void rows(const float *in, float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  out[ty * 32 + tx] = in[tx] + 1.0f;
}

void launch_rows(const float *in, float *out) {
  rows<<<1, dim3(32, ITEMS)>>>(in, out);
}
