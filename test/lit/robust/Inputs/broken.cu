// A syntax error: clang's "expected expression" at 4:10.
__global__ void broken(float *x) {
  int i = threadIdx.x;
  x[i] = ;
}
