// Half precision written with clang's native _Float16 (no cuda_fp16.h):
// a packed 2-lane vector (2 FLOPs per lane op) and a scalar kernel.

typedef _Float16 h2v __attribute__((ext_vector_type(2)));

__global__ void h2v_axpy(int n, _Float16 a, const h2v *x, h2v *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void h_square_m1(int n, const _Float16 *x, _Float16 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i] - (_Float16)1.0f;
}

void run_half_vec(int n, _Float16 a, const h2v *x, h2v *y, const _Float16 *xs, _Float16 *ys) {
  h2v_axpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
  h_square_m1<<<(n + 255) / 256, 256>>>(n, xs, ys);
}
