// CSR sparse matrix-vector product: the row loop's bounds come from memory.

__global__ void spmv_csr(int nrows, const int *row_ptr, const int *col, const float *val,
                         const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < nrows) {
    float s = 0.0f;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      s += val[k] * x[col[k]];
    y[r] = s;
  }
}

void run_spmv(int nrows, const int *row_ptr, const int *col, const float *val,
              const float *x, float *y) {
  spmv_csr<<<(nrows + 127) / 128, 128>>>(nrows, row_ptr, col, val, x, y);
}
