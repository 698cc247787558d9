// The same launch spelled the ways people spell "enough blocks for n
// elements": a macro, helper functions from the header, a lambda, the
// arithmetic written out, and a float ceil.
#include "launch_utils.cuh"

#include <cmath>

__global__ void fill_kernel(float *x, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = value;
}

void fill_macro(float *x, int n) {
  fill_kernel<<<CEIL_DIV(n, 128), 128>>>(x, 0.0f, n);
}

void fill_div_up(float *x, int n) {
  fill_kernel<<<util::div_up(n, 128), 128>>>(x, 0.0f, n);
}

void fill_round_up(float *x, int n) {
  const unsigned threads = 128;
  unsigned total = util::round_up(n, threads);
  fill_kernel<<<total / threads, threads>>>(x, 0.0f, n);
}

void fill_minus_one(float *x, int n) {
  fill_kernel<<<(n - 1) / 128 + 1, 128>>>(x, 0.0f, n);
}

void fill_lambda(float *x, int n) {
  auto blocks_for = [](int count, int per_block) {
    return (count + per_block - 1) / per_block;
  };
  fill_kernel<<<blocks_for(n, 128), 128>>>(x, 0.0f, n);
}

void fill_float(float *x, int n) {
  int blocks = (int)ceil((float)n / 128);
  fill_kernel<<<blocks, 128>>>(x, 0.0f, n);
}
