// Brackets inside string literals in the subscripts: the accesses are
// out[i * sizeof("[[[")] (4 elements between lanes) and
// in[i * sizeof("]]")] (3 elements), expr-string-brackets.test.
__global__ void brackets(int n, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * sizeof("[[[")] = in[i * sizeof("]]")];
}

void launch_brackets(int n, const float *in, float *out) {
  brackets<<<(n + 255) / 256, 256>>>(n, in, out);
}
