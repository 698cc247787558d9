// cuda-roofline: gpu
// An empty gpu annotation (gpu-empty.test).
__global__ void k(float *x) { x[threadIdx.x] = 0; }
