// Input of batch.test: a header with its own database entry (-DHSTRIDE=8).
// cuda-roofline: launch hdr_gather=1/32
#ifndef HSTRIDE
#error "HSTRIDE must come from the compile database"
#endif
__global__ void hdr_gather(const float *in, float *out) {
  int tx = threadIdx.x;
  out[tx] = in[tx * HSTRIDE] + 4.0f;
}
