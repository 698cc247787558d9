// Input of batch.test: a header without a database entry; it borrows the
// flags of batch_b.cu (-DITEMS=5) and is analyzed when named as a FILE.
// cuda-roofline: launch cols=1/32
#ifndef ITEMS
#error "ITEMS must come from the compile database"
#endif
__global__ void cols(const float *in, float *out) {
  int tx = threadIdx.x;
  out[tx] = in[tx * (ITEMS + 3)] * 5.0f;
}
