// frontends_nolint.cu: suppression comments on roofline findings. Line numbers
// matter: tidy.test, plugin.test and same-findings.test check them.
//
// strided_nolint: every global access is strided across the warp (n floats
// between lanes, block 256 x 1), so each would be a roofline-uncoalesced-access
// warning; the comments silence some.
__global__ void strided_nolint(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[t * n]; // NOLINT(roofline-uncoalesced-access)
  // NOLINTNEXTLINE(roofline-uncoalesced-access)
  float b = in[t * n + 1];
  // NOLINTBEGIN(roofline-uncoalesced-access)
  float c = in[t * n + 2];
  float d = in[t * n + 3];
  // NOLINTEND(roofline-uncoalesced-access)
  float e = in[t * n + 4]; // NOLINT(roofline-bank-conflict)
  float f = in[t * n + 5]; // NOLINT
  out[t * n] = a + b + c + d + e + f;
}

// gemm_nolint: naive.cu's accesses and launch (block 16 x 16), but each thread
// walks its row of A in 8 passes (k + j, k += 8): a sector comes back a pass
// later, too far for L1. Its A load has two findings, uncoalesced-access and
// global-reuse (tidy.test derives them): the comment names one, so one stays.
template <int BX, int BY>
__global__ void gemm_nolint(int M, int N, int K, const float *A, const float *B, float *C) {
  int row = blockIdx.x * BX + threadIdx.x, col = blockIdx.y * BY + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < K; k += 8)
        acc += A[row * K + k + j] * B[(k + j) * N + col]; // NOLINT(roofline-uncoalesced-access)
    // NOLINTNEXTLINE(roofline-global-reuse)
    C[row * N + col] = acc + C[row * N + col];
  }
}

void launch_nolint(int M, int N, int K, const float *A, const float *B, float *C,
                   const float *in, float *out, int n) {
  strided_nolint<<<n / 256, 256>>>(in, out, n);
  dim3 block(16, 16);
  dim3 grid((M + 15) / 16, (N + 15) / 16);
  gemm_nolint<16, 16><<<grid, block>>>(M, N, K, A, B, C);
}
