// Launchers using libcu++'s rounding helpers (CUDA 12.6+ / CCCL), as new
// code does instead of a hand-written ceil_div.
#include <cuda/cmath>

__global__ void histogram_kernel(const unsigned char *in, unsigned *bins,
                                 int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i]], 1u);
}

__global__ void clear_kernel(unsigned *bins, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nbins)
    bins[i] = 0;
}

void histogram(const unsigned char *in, unsigned *bins, int n, int nbins) {
  constexpr int threads = 256;
  clear_kernel<<<cuda::ceil_div(nbins, threads), threads>>>(bins, nbins);
  const int padded = cuda::round_up(n, threads);
  histogram_kernel<<<padded / threads, threads>>>(in, bins, n);
}
