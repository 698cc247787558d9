// Input of nolint.test: every load p<N>[k * 1024 + tx * 32] below is both
// strided (roofline-uncoalesced-access) and re-read (roofline-global-reuse):
// the 8 rows of the block read the same elements, and each thread walks its
// elements again in each later pass. L1 cannot keep them for that: a lane
// reads a sector next a whole pass later, after the block has loaded far
// more than its share of L1 (a pass of the 12 loads, 384 KiB); the comments
// decide which of the two warnings remain.
// cuda-roofline: launch nolint_kernel=1/32,8
__global__ void nolint_kernel(const float *p0, const float *p1, const float *p2,
                              const float *p3, const float *p4, const float *p5,
                              const float *p6, const float *p7, const float *p8,
                              const float *p9, const float *pa, const float *pb,
                              float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int pass = 0; pass < 4; ++pass) {
    for (int k = 0; k < 256; ++k) {
      acc += p0[k * 1024 + tx * 32]; // NOLINT
      acc += p1[k * 1024 + tx * 32]; // NOLINT(roofline-uncoalesced-access)
      acc += p2[k * 1024 + tx * 32]; // NOLINT(roofline-bank-*)
      // NOLINTNEXTLINE
      acc += p3[k * 1024 + tx * 32];
      // NOLINTNEXTLINE(roofline-global-reuse)
      acc += p4[k * 1024 + tx * 32];
      // NOLINTBEGIN(roofline-uncoalesced-access)
      acc += p5[k * 1024 + tx * 32];
      acc += p6[k * 1024 + tx * 32];
      // NOLINTEND(roofline-uncoalesced-access)
      acc += p7[k * 1024 + tx * 32]; // NOLINT (roofline-global-reuse)
      acc += p8[k * 1024 + tx * 32]; /* NOLINT(roofline-g*) */
      acc += p9[k * 1024 + tx * 32]; // NOLINT(-roofline-global-reuse)
      acc += pa[k * 1024 + tx * 32]; // NOLINT(roofline-global-reuse, roofline-uncoalesced-access)
      acc += pb[k * 1024 + tx * 32];
    }
    acc *= 0.5f;
  }
  out[ty * 32 + tx] = acc;
}
