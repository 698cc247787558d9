// Input of nolint.test: a NOLINTBEGIN that no NOLINTEND closes (the END
// below names other checks, so it closes nothing either). Each thread reads
// its strided elements of p0 and p1 again in the second pass.
// cuda-roofline: launch nolint_unmatched=1/32,8
__global__ void nolint_unmatched(const float *p0, const float *p1, float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int pass = 0; pass < 2; ++pass)
    for (int k = 0; k < 512; ++k) {
      /* NOLINTBEGIN(roofline-global-reuse) */ acc += p0[k * 1024 + tx * 32];
      acc += p1[k * 1024 + tx * 32];
      // NOLINTEND(roofline-uncoalesced-access)
    }
  out[ty * 32 + tx] = acc;
}
