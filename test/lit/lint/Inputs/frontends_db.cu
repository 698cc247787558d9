// frontends_db.cu: a kernel that only compiles with the flags of a compile
// database: STRIDE comes from its -DSTRIDE=64. Each lane reads a float
// STRIDE floats after the previous lane's: uncoalesced.
#ifndef STRIDE
#error "STRIDE must be defined"
#endif

__global__ void strided_db(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * STRIDE];
}

void launch_strided_db(const float *in, float *out) {
  strided_db<<<4096, 256>>>(in, out);
}
