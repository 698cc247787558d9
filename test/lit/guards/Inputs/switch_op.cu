// A `switch` on a kernel parameter selects the elementwise operation.

__global__ void apply_op(int op, int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  float r;
  switch (op) {
  case 0:
    r = v + 1.0f;
    break;
  case 1:
    r = v * v * v;
    break;
  case 2:
    r = v / 3.0f;
    break;
  case 4:
    v = v * 2.0f;
    // fall through
  case 5:
    r = v - 1.0f;
    break;
  default:
    r = sqrtf(v);
    break;
  }
  y[i] = r;
}

void launch_apply_op(int op, int n, const float *x, float *y) {
  apply_op<<<(n + 127) / 128, 128>>>(op, n, x, y);
}

// Second call site: the operation is chosen on the host with a conditional operator.
void launch_apply_op_auto(int n, const float *x, float *y) {
  int op = (n % 2 == 0) ? 1 : 2;
  apply_op<<<(n + 127) / 128, 128>>>(op, n, x, y);
}
