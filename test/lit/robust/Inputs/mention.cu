// Text GitHub would render as something else -- a mention (@name), an emoji
// (:name:), math ($...$) -- in the quoted expression; the test copies this
// file to a name that has them too. n = 4096: 16 x 256 threads, lanes
// $w = 32 elements apart.
__global__ void mention(int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int $w = 32;
  if (i < n)
    out[i * $w + 0 * sizeof("@octocat :rocket: $x$")] = 1.0f;
}

void launch_mention(int n, float *out) {
  mention<<<(n + 255) / 256, 256>>>(n, out);
}
