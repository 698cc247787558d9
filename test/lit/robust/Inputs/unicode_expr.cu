// Non-ASCII identifiers (clang takes UTF-8 identifiers): 'é' is two bytes
// and one UTF-16 unit, '漢' three bytes and one unit, '𝑥' (U+1D465) four
// bytes and two units. escape-unicode.test runs it in every format.
__global__ void données_𝑥(int n, const float *entrée, float *sortie_漢) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float é = 2.0f, 𝑥 = 3.0f;
  if (i < n) {
    sortie_漢[i * 32] = é * entrée[i * 64] + 𝑥 * entrée[i * 128];
  }
}

void lance(int n, const float *entrée, float *sortie) {
  données_𝑥<<<(n + 255) / 256, 256>>>(n, entrée, sortie);
}
