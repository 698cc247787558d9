// Recursive __device__ function: pairwise (tree) sum of x[lo, hi).

__device__ float tree_sum(const float *x, int lo, int hi) {
  if (hi - lo == 1)
    return x[lo];
  int mid = (lo + hi) / 2;
  return tree_sum(x, lo, mid) + tree_sum(x, mid, hi);
}

__global__ void tree_reduce(int n, const float *x, float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = tree_sum(x, 0, n);
}

void run_tree(int n, const float *x, float *out) {
  tree_reduce<<<1, 32>>>(n, x, out);
}
