// Block sizes chosen by helpers with switch statements, as libraries pick
// them per data type or per architecture.
#include <cuda_runtime.h>

enum class DType { F32, F16, BF16, F64 };

__global__ void fill_kernel(float *x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = v;
}

// Fallthrough: F16 and BF16 share a case; F64 falls to the default.
static int threads_for(DType t) {
  switch (t) {
  case DType::F32:
    return 256;
  case DType::F16:
  case DType::BF16:
    return 512;
  default:
    break;
  }
  return 128;
}

// Case ranges (a GNU extension nvcc and clang accept) and a statement
// after the case that falls through into the next one.
constexpr int blocks_per_sm(int major) {
  int b = 1;
  switch (major) {
  case 1 ... 6:
    b = 2;
    break;
  case 7:
    b += 1;
    [[fallthrough]];
  case 8:
    b += 2;
    break;
  }
  return b;
}

// A case label inside a loop of the switch's body (Duff's device): not
// followed.
inline int duff(int n) {
  int k = 0;
  switch (n % 2) {
  case 0:
    do {
      k += 1;
    case 1:
      k += 1;
    } while (--n > 0);
  }
  return k;
}

void fill_all(float *x, int n) {
  fill_kernel<<<(n + 255) / 256, threads_for(DType::F32)>>>(x, 1.0f, n);
  fill_kernel<<<(n + 511) / 512, threads_for(DType::BF16)>>>(x, 2.0f, n);
  fill_kernel<<<(n + 127) / 128, threads_for(DType::F64)>>>(x, 3.0f, n);
  fill_kernel<<<132 * blocks_per_sm(7), 256>>>(x, 4.0f, n);
  fill_kernel<<<132 * blocks_per_sm(9), 256>>>(x, 5.0f, n);
  fill_kernel<<<132 * blocks_per_sm(5), 256>>>(x, 6.0f, n);
  fill_kernel<<<duff(3), 64>>>(x, 7.0f, n);
}
