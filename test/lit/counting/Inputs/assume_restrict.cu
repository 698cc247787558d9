// __restrict__ pointers and __builtin_assume / __builtin_assume_aligned hints:
// they change no count.
__global__ void triad(const float *__restrict__ a, const float *__restrict__ b,
                      float *__restrict__ c, float s, int n) {
  __builtin_assume(n > 0);
  __builtin_assume(n % 4 == 0);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + s * b[i];
}

__global__ void copy_aligned(const float *in, float *out, int n) {
  const float *ain = static_cast<const float *>(__builtin_assume_aligned(in, 16));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __builtin_assume(i >= 0);
  if (i < n) out[i] = ain[i] * ain[i];
}

void run(const float *a, const float *b, float *c, int n) {
  triad<<<(n + 255) / 256, 256>>>(a, b, c, 2.0f, n);
  copy_aligned<<<(n + 255) / 256, 256>>>(a, c, n);
}
