// Input of batch.test: named relatively by its database entry (as Bear
// writes them). Line 6 is silenced by its NOLINT; line 7 is reported.
// cuda-roofline: launch rel_gather=1/32
__global__ void rel_gather(const float *in, const float *w, float *out) {
  int tx = threadIdx.x;
  float v = in[tx * RSTRIDE]; // NOLINT(roofline-uncoalesced-access)
  out[tx] = v * w[tx * 2 * RSTRIDE];
}
