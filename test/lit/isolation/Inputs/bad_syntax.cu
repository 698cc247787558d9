// A syntax error: the right-hand side of the store is missing.
__global__ void bad(float *x) { x[threadIdx.x] = ; }
