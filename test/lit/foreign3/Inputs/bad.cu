__global__ void bad(float *x) { x[threadIdx.x] = ; }
