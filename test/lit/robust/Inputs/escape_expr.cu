// Accesses whose source text the findings quote: double and single quotes,
// a backslash, backticks, '::', "%25" (GitHub's escape for '%'), a tab and
// a line break. escape-expr.test runs it in every format with
// check_formats.py; expr-crlf.test a copy with CRLF line ends.
namespace ns { constexpr int stride = 32; }

__global__ void quoting(int n, const float *in, float *out, float *out2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i * sizeof("a\"b`c'\\")] = in[i * ns::stride + 0 * (i %25)];
    out2[i * ('`' - 80)	+ 1] = in[i *
                                       64];
  }
}

void launch_quoting(int n, const float *in, float *out, float *out2) {
  quoting<<<(n + 255) / 256, 256>>>(n, in, out, out2);
}
