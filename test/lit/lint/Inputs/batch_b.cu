// Input of batch.test, nvcc-style database entry (-DITEMS=5); the block
// has ITEMS rows, launched from the host function below. Every row sums the
// same 4096 x 32 floats of in (512 KiB), twice: a lane reads an element
// again only in the second pass, after the block has walked the whole of
// in, more than L1 keeps for the block.
#ifndef ITEMS
#error "ITEMS must come from the compile database"
#endif
__global__ void rows(const float *in, float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < 4096; ++i)
      acc += in[i * 32 + tx];
  out[ty * 32 + tx] = acc;
}

void launch_rows(const float *in, float *out) {
  rows<<<1, dim3(32, ITEMS)>>>(in, out);
}
