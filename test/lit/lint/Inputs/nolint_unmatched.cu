// Input of nolint.test: a NOLINTBEGIN that no NOLINTEND closes (the END
// below names other checks, so it closes nothing either).
// cuda-roofline: launch nolint_unmatched=1/32,8
__global__ void nolint_unmatched(const float *p0, const float *p1, float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  /* NOLINTBEGIN(roofline-global-reuse) */ float acc = p0[tx * 32];
  acc += p1[tx * 32];
  // NOLINTEND(roofline-uncoalesced-access)
  out[ty * 32 + tx] = acc;
}
