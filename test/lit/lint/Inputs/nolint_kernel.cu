// Input of nolint.test: every load p<N>[tx * 32] below is both strided
// (roofline-uncoalesced-access) and re-read by the 8 rows of the block
// (roofline-global-reuse); the comments decide which of the two remain.
// cuda-roofline: launch nolint_kernel=1/32,8
__global__ void nolint_kernel(const float *p0, const float *p1, const float *p2,
                              const float *p3, const float *p4, const float *p5,
                              const float *p6, const float *p7, const float *p8,
                              const float *p9, const float *pa, const float *pb,
                              float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = p0[tx * 32]; // NOLINT
  acc += p1[tx * 32]; // NOLINT(roofline-uncoalesced-access)
  acc += p2[tx * 32]; // NOLINT(roofline-bank-*)
  // NOLINTNEXTLINE
  acc += p3[tx * 32];
  // NOLINTNEXTLINE(roofline-global-reuse)
  acc += p4[tx * 32];
  // NOLINTBEGIN(roofline-uncoalesced-access)
  acc += p5[tx * 32];
  acc += p6[tx * 32];
  // NOLINTEND(roofline-uncoalesced-access)
  acc += p7[tx * 32]; // NOLINT (roofline-global-reuse)
  acc += p8[tx * 32]; /* NOLINT(roofline-g*) */
  acc += p9[tx * 32]; // NOLINT(-roofline-global-reuse)
  acc += pa[tx * 32]; // NOLINT(roofline-global-reuse, roofline-uncoalesced-access)
  acc += pb[tx * 32];
  out[ty * 32 + tx] = acc;
}
