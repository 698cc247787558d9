// One thread per warp writes: the warp's leader (lane 0), found by the
// thread's index within the block, as cooperative groups' thread_rank()
// computes it. The written index i / 32 is a signed division of a value
// that is never negative.
__global__ void leader_1d(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 32 == 0)
    out[i / 32] = 1.0f;
}

__global__ void leader_rank(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int rank = blockDim.x * blockDim.y * threadIdx.z + blockDim.x * threadIdx.y +
             threadIdx.x;
  if (rank % 32 == 0)
    out[i / 32] = 1.0f;
}

void run(float *out) {
  int n = 1 << 24;
  leader_1d<<<n / 256, 256>>>(out, n);
  leader_rank<<<n / 256, 256>>>(out, n);
}
