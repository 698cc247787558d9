// Input of exit-codes.test: does not compile.
__global__ void broken(float *out) {
  out[threadIdx.x] = undeclared_name;
}
